package io.pinmx.mpj.programs;

import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.Type;
import mpjdev.MPJDev;
import mpjdev.Request;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/**
 * A program that drives the device itself, as MPJ's own xdev tests do: {@code MPJDev.init} with a blank rank (the
 * device takes the job's), then {@code init} again on the device with the program's arguments, which must give the
 * same ids (init as another rank is refused, naming it); rank 0 sends every other rank its rank and a tag of its own through the device, each answers with its
 * rank doubled, then {@code finish}. Prints "DirectDevice OK" on every rank.
 */
public final class DirectDevice
{
    private static final int CONTEXT = 23;
    private static final int INTS = 4;
    private static final int CAPACITY_BYTES = 256;

    private DirectDevice()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Device device = MPJDev.init(new String[]{"", "", args[2]});
        final ProcessID[] first = device.init(new String[]{"", "", args[2]});
        final ProcessID[] ids = device.init(args);
        Check.equal(first.length, ids.length, "ranks from both inits");
        final int me = Integer.parseInt(args[0]);
        for (int r = 0; r < ids.length; r++)
        {
            Check.that(first[r].uuid().equals(ids[r].uuid()), "rank " + r + "'s id is the same from both inits");
        }
        Check.that(ids[me].uuid().equals(device.id().uuid()), "the device's own id is rank " + me + "'s");
        final String otherRank = Integer.toString((me + 1) % ids.length);
        try
        {
            device.init(new String[]{otherRank, args[1], args[2]});
            Check.that(false, "init as rank " + otherRank + " on rank " + me + "'s open device was accepted");
        }
        catch (final XDevException expected)
        {
            Check.that(expected.getMessage().contains("'" + otherRank + "'"),
                "the refusal names the rank argument: " + expected.getMessage());
        }
        if (!BufferFactory.initialized())
        {
            BufferFactory.init("Buddy1");
        }
        final int overhead = device.getSendOverhead();
        final Buffer buffer = new Buffer(BufferFactory.create(CAPACITY_BYTES), overhead, CAPACITY_BYTES);
        if (0 == me)
        {
            for (int r = 1; r < ids.length; r++)
            {
                send(device, buffer, ids[r], 100 + r, new int[]{r, r, r, r});
            }
            for (int r = 1; r < ids.length; r++)
            {
                final int[] answer = receive(device, buffer, ids[r], 200 + r);
                Check.equal(2L * r, answer[0], "rank " + r + "'s answer");
            }
        }
        else
        {
            final int[] got = receive(device, buffer, ids[0], 100 + me);
            for (final int v : got)
            {
                Check.equal(me, v, "what rank 0 sent rank " + me);
            }
            send(device, buffer, ids[0], 200 + me, new int[]{2 * me, 0, 0, 0});
        }
        device.finish();
        System.out.println("DirectDevice OK");
    }

    private static void send(final Device device, final Buffer buffer, final ProcessID to, final int tag,
        final int[] values) throws Exception
    {
        buffer.clear();
        buffer.putSectionHeader(Type.INT);
        buffer.write(values, 0, values.length);
        buffer.commit();
        final Request request = device.isend(buffer, to, tag, CONTEXT);
        request.iwait();
    }

    private static int[] receive(final Device device, final Buffer buffer, final ProcessID from, final int tag)
        throws Exception
    {
        buffer.clear();
        final Request request = device.irecv(buffer, from, tag, CONTEXT, new mpjdev.Status());
        request.iwait();
        buffer.commit();
        Check.that(Type.INT == buffer.getSectionHeader(), "an int section from " + from);
        final int[] values = new int[INTS];
        buffer.read(values, 0, INTS);
        return values;
    }
}
