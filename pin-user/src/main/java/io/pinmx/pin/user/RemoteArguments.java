package io.pinmx.pin.user;

import io.pinmx.pin.spi.AtomicOp;
import io.pinmx.pin.spi.AtomicSpec;
import io.pinmx.pin.spi.DriverError;
import io.pinmx.pin.spi.DriverException;
import io.pinmx.pin.spi.PutSpec;
import io.pinmx.pin.wire.AtomicFrame;

import java.lang.foreign.MemorySegment;

/**
 * The argument checks of {@code startPut} and {@code startAtomic} the user driver makes before taking a slot, with the
 * same bounds as pinmx.ko's, so a refusal names the argument and code above sees one behaviour on both providers.
 */
final class RemoteArguments
{
    /** Most bytes of one put. */
    static final long PUT_MAX_BYTES = 16L << 20;
    /** Most pieces of one put. */
    static final int PUT_MAX_PIECES = 1024;

    private RemoteArguments()
    {
    }

    static void checkPut(final PutSpec spec)
    {
        if (!spec.isVector())
        {
            return;
        }
        final int pieces = spec.pieceCount();
        if (pieces < 1 || pieces > PUT_MAX_PIECES || null == spec.remoteOffsets() || null == spec.localOffsets() ||
            pieces > spec.remoteOffsets().length || pieces > spec.localOffsets().length ||
            pieces > spec.lengths().length)
        {
            throw bad(spec, "piece count " + pieces + " is not 1.." + PUT_MAX_PIECES +
                " or the offset and length arrays hold fewer");
        }
    }

    static void checkAtomic(final AtomicSpec spec)
    {
        final int width = spec.widthBytes();
        if (null == spec.op())
        {
            throw bad(spec, "no operation");
        }
        if (width != AtomicSpec.INT32_BYTES && width != AtomicSpec.INT64_BYTES)
        {
            throw bad(spec, "width " + width + " bytes is not 4 (int32) or 8 (int64)");
        }
        if (spec.remoteOffset() < 0 || spec.remoteOffset() % width != 0)
        {
            throw bad(spec, "remote offset " + spec.remoteOffset() + " is negative or not a multiple of the width " +
                width + " (atomics need naturally aligned words)");
        }
        if (AtomicOp.ACCUMULATE != spec.op())
        {
            return;
        }
        final MemorySegment values = spec.values();
        final long words = values.byteSize() / width;
        if (!values.isNative() || values.byteSize() % width != 0 || words < 1 ||
            words > AtomicFrame.MAX_ACCUMULATE_WORDS)
        {
            throw bad(spec, "values " + values + " must be native memory of 1.." + AtomicFrame.MAX_ACCUMULATE_WORDS +
                " whole " + width + "-byte words");
        }
        if (spec.remoteOffset() + words * width < 0)
        {
            throw bad(spec, "remote offset " + spec.remoteOffset() + " overflows with " + words + " words");
        }
    }

    static DriverException bad(final Object spec, final String cause)
    {
        return new DriverException(DriverError.BAD_ARGUMENT, spec + ": " + cause);
    }
}
