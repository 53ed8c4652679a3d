package io.pinmx.job;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * This process as a client of the PMIx server that started it (the launcher's daemon): its namespace and rank
 * from PMIx_Init, the job's size and this node's ranks from PMIx_Get, and the modex calls (PMIx_Put of a
 * global byte object, PMIx_Commit, PMIx_Fence with or without data collection, PMIx_Get of another rank's
 * value). Every failing call throws naming the call and PMIx's text for the status. The calls block; the
 * PMIx library is thread-safe and progresses on its own thread, so any one thread may make them.
 */
final class PmixClient implements AutoCloseable
{
    /** Lifecycle of the connection: calls are refused once finalized. */
    enum State
    {
        INITIALIZED,
        FINALIZED
    }

    private static final int[] DEATH_EVENTS = {
        PmixLibrary.EVENT_PROC_ABORTED, PmixLibrary.EVENT_PROC_ABORTING, PmixLibrary.EVENT_PROC_TERMINATED,
        PmixLibrary.EVENT_PROC_TERM_WITHOUT_SYNC, PmixLibrary.EVENT_PROC_ABORTED_BY_SIGNAL,
        PmixLibrary.EVENT_PROC_KILLED_BY_COMMAND, PmixLibrary.EVENT_LOST_CONNECTION,
        PmixLibrary.EVENT_JOB_TERMINATED};

    private final PmixLibrary pmix;
    private final String namespace;
    private final int rank;
    /** The upcall stub and event codes live as long as the process: PMIx may call the handler until exit. */
    private final Arena handlerArena = Arena.ofAuto();
    private volatile State state = State.INITIALIZED;
    private volatile BiConsumer<Integer, String> deathListener;

    private PmixClient(final PmixLibrary pmix, final String namespace, final int rank)
    {
        this.pmix = pmix;
        this.namespace = namespace;
        this.rank = rank;
    }

    /**
     * @throws IllegalStateException naming PMIx_Init and PMIx's text when there is no server to connect to.
     */
    static PmixClient init()
    {
        final PmixLibrary pmix = PmixLibrary.load();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment proc = arena.allocate(PmixLibrary.PROC_BYTES, 8);
            pmix.check((int)pmix.init.invokeExact(proc, MemorySegment.NULL, 0L), "PMIx_Init");
            return new PmixClient(pmix, PmixLibrary.namespace(proc), PmixLibrary.rank(proc));
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: PMIx_Init: " + ex, ex);
        }
    }

    String namespace()
    {
        return namespace;
    }

    int rank()
    {
        return rank;
    }

    /** The job's size ({@value PmixLibrary#KEY_JOB_SIZE}). */
    int jobSize()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment value = getValue(arena, PmixLibrary.RANK_WILDCARD, PmixLibrary.KEY_JOB_SIZE);
            try
            {
                final short type = value.get(ValueLayout.JAVA_SHORT, PmixLibrary.VALUE_TYPE_OFFSET);
                return switch (type)
                {
                    case PmixLibrary.TYPE_UINT32, PmixLibrary.TYPE_PROC_RANK ->
                        value.get(ValueLayout.JAVA_INT, PmixLibrary.VALUE_DATA_OFFSET);
                    case PmixLibrary.TYPE_UINT16 -> Short.toUnsignedInt(value.get(ValueLayout.JAVA_SHORT,
                        PmixLibrary.VALUE_DATA_OFFSET));
                    default -> throw new IllegalStateException("PMIx: PMIx_Get(" + PmixLibrary.KEY_JOB_SIZE +
                        ") gave a value of type " + type + ", not a number");
                };
            }
            finally
            {
                release(value);
            }
        }
    }

    /** The ranks on this node ({@value PmixLibrary#KEY_LOCAL_PEERS}), this one included, ascending. */
    int[] localPeers()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment value = getValue(arena, PmixLibrary.RANK_WILDCARD, PmixLibrary.KEY_LOCAL_PEERS);
            try
            {
                final short type = value.get(ValueLayout.JAVA_SHORT, PmixLibrary.VALUE_TYPE_OFFSET);
                if (PmixLibrary.TYPE_STRING != type)
                {
                    throw new IllegalStateException("PMIx: PMIx_Get(" + PmixLibrary.KEY_LOCAL_PEERS +
                        ") gave a value of type " + type + ", not a string");
                }
                final String list = value.get(ValueLayout.ADDRESS, PmixLibrary.VALUE_DATA_OFFSET)
                    .reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.US_ASCII);
                return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .mapToInt(Integer::parseInt).sorted().toArray();
            }
            finally
            {
                release(value);
            }
        }
    }

    /** PMIx_Put of a global byte object under {@code key}, then PMIx_Commit. */
    void putAndCommit(final String key, final byte[] bytes)
    {
        checkOpen();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment data = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, 0, bytes.length);
            final MemorySegment value = arena.allocate(PmixLibrary.VALUE_BYTES, 8);
            value.set(ValueLayout.JAVA_SHORT, PmixLibrary.VALUE_TYPE_OFFSET, PmixLibrary.TYPE_BYTE_OBJECT);
            value.set(ValueLayout.ADDRESS, PmixLibrary.VALUE_DATA_OFFSET, data);
            value.set(ValueLayout.JAVA_LONG, PmixLibrary.BYTE_OBJECT_SIZE_OFFSET, bytes.length);
            pmix.check((int)pmix.put.invokeExact(PmixLibrary.SCOPE_GLOBAL, arena.allocateFrom(key), value),
                "PMIx_Put(" + key + ")");
            pmix.check((int)pmix.commit.invokeExact(), "PMIx_Commit");
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: PMIx_Put(" + key + "): " + ex, ex);
        }
    }

    /** PMIx_Fence over the whole job; with {@code collect}, every rank's committed values reach every rank. */
    void fence(final boolean collect)
    {
        checkOpen();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment all = PmixLibrary.allocateProc(arena, namespace, PmixLibrary.RANK_WILDCARD);
            final MemorySegment info = collect ?
                PmixLibrary.allocateBooleanInfo(arena, PmixLibrary.KEY_COLLECT_DATA, true) : MemorySegment.NULL;
            pmix.check((int)pmix.fence.invokeExact(all, 1L, info, collect ? 1L : 0L),
                collect ? "PMIx_Fence(" + PmixLibrary.KEY_COLLECT_DATA + ")" : "PMIx_Fence");
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: PMIx_Fence: " + ex, ex);
        }
    }

    /** PMIx_Get of the byte object rank {@code from} put under {@code key}. */
    byte[] getBytes(final int from, final String key)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment value = getValue(arena, from, key);
            try
            {
                final short type = value.get(ValueLayout.JAVA_SHORT, PmixLibrary.VALUE_TYPE_OFFSET);
                if (PmixLibrary.TYPE_BYTE_OBJECT != type)
                {
                    throw new IllegalStateException("PMIx: PMIx_Get(rank " + from + ", " + key +
                        ") gave a value of type " + type + ", not bytes");
                }
                final long length = value.get(ValueLayout.JAVA_LONG, PmixLibrary.BYTE_OBJECT_SIZE_OFFSET);
                final MemorySegment bytes = value.get(ValueLayout.ADDRESS, PmixLibrary.VALUE_DATA_OFFSET);
                return 0 == length ? new byte[0] : bytes.reinterpret(length).toArray(ValueLayout.JAVA_BYTE);
            }
            finally
            {
                release(value);
            }
        }
    }

    /**
     * PMIx_Query_info of this job's process table ({@value PmixLibrary#QUERY_PROC_TABLE}): every rank's host, pid and
     * state as the launcher knows them (Open MPI's daemons record a death there within seconds).
     *
     * @throws IllegalStateException naming the query and PMIx's text when the server does not answer it.
     */
    List<PmixProcess> processTable()
    {
        checkOpen();
        final String call = "PMIx_Query_info(" + PmixLibrary.QUERY_PROC_TABLE + ")";
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment keys = arena.allocate(ValueLayout.ADDRESS, 2);
            keys.setAtIndex(ValueLayout.ADDRESS, 0, arena.allocateFrom(PmixLibrary.QUERY_PROC_TABLE));
            keys.setAtIndex(ValueLayout.ADDRESS, 1, MemorySegment.NULL);
            final MemorySegment query = arena.allocate(PmixLibrary.QUERY_BYTES, 8);
            query.set(ValueLayout.ADDRESS, PmixLibrary.QUERY_KEYS_OFFSET, keys);
            query.set(ValueLayout.ADDRESS, PmixLibrary.QUERY_QUALIFIERS_OFFSET,
                PmixLibrary.allocateStringInfo(arena, PmixLibrary.KEY_NAMESPACE, namespace));
            query.set(ValueLayout.JAVA_LONG, PmixLibrary.QUERY_QUALIFIER_COUNT_OFFSET, 1L);
            final MemorySegment results = arena.allocate(ValueLayout.ADDRESS);
            final MemorySegment count = arena.allocate(ValueLayout.JAVA_LONG);
            pmix.check((int)pmix.queryInfo.invokeExact(query, 1L, results, count), call);
            final long n = count.get(ValueLayout.JAVA_LONG, 0);
            final MemorySegment infos = results.get(ValueLayout.ADDRESS, 0);
            if (MemorySegment.NULL.equals(infos))
            {
                return List.of();
            }
            final MemorySegment all = infos.reinterpret(n * PmixLibrary.INFO_BYTES);
            try
            {
                final List<PmixProcess> table = new ArrayList<>();
                for (long i = 0; i < n; i++)
                {
                    final MemorySegment info = all.asSlice(i * PmixLibrary.INFO_BYTES, PmixLibrary.INFO_BYTES);
                    if (PmixLibrary.QUERY_PROC_TABLE.equals(PmixLibrary.infoKey(info)))
                    {
                        collectProcesses(info.asSlice(PmixLibrary.INFO_VALUE_OFFSET, PmixLibrary.VALUE_BYTES), table);
                    }
                }
                return table;
            }
            finally
            {
                for (long i = 0; i < n; i++)
                {
                    pmix.valueDestruct.invokeExact(
                        all.asSlice(i * PmixLibrary.INFO_BYTES + PmixLibrary.INFO_VALUE_OFFSET, PmixLibrary.VALUE_BYTES));
                }
                pmix.free.invokeExact(infos);
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: " + call + ": " + ex, ex);
        }
    }

    /**
     * A value that holds processes: one pmix_proc_info_t, or a data array of them, or of infos each holding one (Open
     * MPI 4.1's server answers so).
     */
    private static void collectProcesses(final MemorySegment value, final List<PmixProcess> into)
    {
        final MemorySegment data = value.get(ValueLayout.ADDRESS, PmixLibrary.VALUE_DATA_OFFSET);
        if (MemorySegment.NULL.equals(data))
        {
            return;
        }
        switch (value.get(ValueLayout.JAVA_SHORT, PmixLibrary.VALUE_TYPE_OFFSET))
        {
            case PmixLibrary.TYPE_PROC_INFO -> into.add(process(data.reinterpret(PmixLibrary.PROC_INFO_BYTES)));
            case PmixLibrary.TYPE_DATA_ARRAY ->
            {
                final MemorySegment array = data.reinterpret(PmixLibrary.DATA_ARRAY_BYTES);
                final short type = array.get(ValueLayout.JAVA_SHORT, PmixLibrary.DATA_ARRAY_TYPE_OFFSET);
                final long size = array.get(ValueLayout.JAVA_LONG, PmixLibrary.DATA_ARRAY_SIZE_OFFSET);
                final MemorySegment elements = array.get(ValueLayout.ADDRESS, PmixLibrary.DATA_ARRAY_ARRAY_OFFSET);
                if (MemorySegment.NULL.equals(elements))
                {
                    return;
                }
                if (PmixLibrary.TYPE_PROC_INFO == type)
                {
                    final MemorySegment procs = elements.reinterpret(size * PmixLibrary.PROC_INFO_BYTES);
                    for (long i = 0; i < size; i++)
                    {
                        into.add(process(procs.asSlice(i * PmixLibrary.PROC_INFO_BYTES, PmixLibrary.PROC_INFO_BYTES)));
                    }
                }
                else if (PmixLibrary.TYPE_INFO == type)
                {
                    final MemorySegment infos = elements.reinterpret(size * PmixLibrary.INFO_BYTES);
                    for (long i = 0; i < size; i++)
                    {
                        collectProcesses(infos.asSlice(i * PmixLibrary.INFO_BYTES + PmixLibrary.INFO_VALUE_OFFSET,
                            PmixLibrary.VALUE_BYTES), into);
                    }
                }
            }
            default ->
            {
            }
        }
    }

    private static PmixProcess process(final MemorySegment info)
    {
        return new PmixProcess(PmixLibrary.rank(info),
            PmixLibrary.string(info.get(ValueLayout.ADDRESS, PmixLibrary.PROC_INFO_HOSTNAME_OFFSET)),
            info.get(ValueLayout.JAVA_INT, PmixLibrary.PROC_INFO_PID_OFFSET),
            Byte.toUnsignedInt(info.get(ValueLayout.JAVA_BYTE, PmixLibrary.PROC_INFO_STATE_OFFSET)));
    }

    /**
     * Asks PMIx to report a rank's death (abort, termination, lost connection: whichever the server sends) to
     * {@code listener} with the rank and a description; the listener runs on PMIx's thread and must not block.
     *
     * @throws IllegalStateException naming PMIx_Register_event_handler and PMIx's text when the server refuses.
     */
    void onRankDeath(final BiConsumer<Integer, String> listener)
    {
        checkOpen();
        deathListener = listener;
        try
        {
            final MethodHandle target = MethodHandles.lookup().findVirtual(PmixClient.class, "event",
                MethodType.methodType(void.class, long.class, int.class, MemorySegment.class, MemorySegment.class,
                    long.class, MemorySegment.class, long.class, MemorySegment.class, MemorySegment.class))
                .bindTo(this);
            final ValueLayout pointer = ValueLayout.ADDRESS;
            final MemorySegment stub = Linker.nativeLinker().upcallStub(target, FunctionDescriptor.ofVoid(
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, pointer, pointer, ValueLayout.JAVA_LONG, pointer,
                ValueLayout.JAVA_LONG, pointer, pointer), handlerArena);
            final MemorySegment codes = handlerArena.allocateFrom(ValueLayout.JAVA_INT, DEATH_EVENTS);
            final int reference = (int)pmix.registerEventHandler.invokeExact(codes, (long)DEATH_EVENTS.length,
                MemorySegment.NULL, 0L, stub, MemorySegment.NULL, MemorySegment.NULL);
            if (reference < 0)
            {
                pmix.check(reference, "PMIx_Register_event_handler");
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: PMIx_Register_event_handler: " + ex, ex);
        }
    }

    /** The upcall: names the affected rank (the event's pmix.evproc, else its source) and lets PMIx go on. */
    private void event(
        final long registration, final int status, final MemorySegment source, final MemorySegment info,
        final long infoCount, final MemorySegment results, final long resultCount, final MemorySegment done,
        final MemorySegment doneData)
    {
        try
        {
            int affected = MemorySegment.NULL.equals(source) ? -1 : PmixLibrary.rank(source);
            final MemorySegment infos = MemorySegment.NULL.equals(info) ? info :
                info.reinterpret(PmixLibrary.INFO_BYTES * infoCount);
            for (long i = 0; i < infoCount && !MemorySegment.NULL.equals(infos); i++)
            {
                final MemorySegment one = infos.asSlice(i * PmixLibrary.INFO_BYTES, PmixLibrary.INFO_BYTES);
                if (PmixLibrary.KEY_AFFECTED_PROC.equals(PmixLibrary.infoKey(one)) && PmixLibrary.TYPE_PROC ==
                    one.get(ValueLayout.JAVA_SHORT, PmixLibrary.INFO_VALUE_OFFSET + PmixLibrary.VALUE_TYPE_OFFSET))
                {
                    affected = PmixLibrary.rank(one.get(ValueLayout.ADDRESS,
                        PmixLibrary.INFO_VALUE_OFFSET + PmixLibrary.VALUE_DATA_OFFSET));
                }
            }
            final BiConsumer<Integer, String> listener = deathListener;
            if (null != listener && affected >= 0 && affected != rank && affected < PmixLibrary.RANK_WILDCARD - 1)
            {
                listener.accept(affected, "PMIx event " + pmix.describe(status));
            }
        }
        catch (final RuntimeException | Error ex)
        {
            // an upcall must not throw: the process would crash
        }
        if (!MemorySegment.NULL.equals(done))
        {
            completeEvent(done, doneData);
        }
    }

    private static void completeEvent(final MemorySegment done, final MemorySegment doneData)
    {
        try
        {
            final ValueLayout pointer = ValueLayout.ADDRESS;
            final MethodHandle complete = Linker.nativeLinker().downcallHandle(done, FunctionDescriptor.ofVoid(
                ValueLayout.JAVA_INT, pointer, ValueLayout.JAVA_LONG, pointer, pointer, pointer));
            complete.invokeExact(PmixLibrary.EVENT_ACTION_COMPLETE, MemorySegment.NULL, 0L, MemorySegment.NULL,
                MemorySegment.NULL, doneData);
        }
        catch (final Throwable ignored)
        {
            // nothing to tell PMIx more than that the event was seen
        }
    }

    private MemorySegment getValue(final Arena arena, final int from, final String key)
    {
        checkOpen();
        try
        {
            final MemorySegment proc = PmixLibrary.allocateProc(arena, namespace, from);
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            pmix.check((int)pmix.get.invokeExact(proc, arena.allocateFrom(key), MemorySegment.NULL, 0L, out),
                "PMIx_Get(" + (PmixLibrary.RANK_WILDCARD == from ? "job" : "rank " + from) + ", " + key + ")");
            return out.get(ValueLayout.ADDRESS, 0).reinterpret(PmixLibrary.VALUE_BYTES);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: PMIx_Get(" + key + "): " + ex, ex);
        }
    }

    /** PMIX_VALUE_RELEASE: the value's contents, then the value PMIx_Get allocated. */
    private void release(final MemorySegment value)
    {
        try
        {
            pmix.valueDestruct.invokeExact(value);
            pmix.free.invokeExact(value);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: releasing a PMIx_Get value: " + ex, ex);
        }
    }

    private void checkOpen()
    {
        if (State.FINALIZED == state)
        {
            throw new IllegalStateException("PMIx: the client of rank " + rank + " is finalized");
        }
    }

    /** PMIx_Finalize; once. */
    @Override
    public void close()
    {
        if (State.FINALIZED == state)
        {
            return;
        }
        state = State.FINALIZED;
        deathListener = null;
        try
        {
            pmix.check((int)pmix.finalizeClient.invokeExact(MemorySegment.NULL, 0L), "PMIx_Finalize");
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("PMIx: PMIx_Finalize: " + ex, ex);
        }
    }
}
