package io.pinmx.pin.user;

import io.pinmx.pin.provider.Libc;
import io.pinmx.pin.wire.AtomicFrame;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Applies peers' atomics to words of this process's exposed regions with the CPU's atomic instructions (VarHandle
 * atomics on the word), so they are atomic against the application's own atomics on it. The word is touched
 * directly, not through a system call that would fail instead of crashing, so three guards stand before the access:
 * <ul>
 *   <li>the region is declared while the word is applied: {@code destroyRegion} waits for a frame being served into
 *   it ({@link RemoteWriteServer}), so memory freed after its region is destroyed is never touched;</li>
 *   <li>a word of memory that an arena owns is touched through the declared segment ({@link #word}), so FFM refuses
 *   the access once the arena is closed instead of touching freed memory (FFM never frees a shared arena's memory
 *   in the middle of an access);</li>
 *   <li>the word's page is checked to be mapped writable ({@link #writable}): madvise(MADV_POPULATE_WRITE) over it,
 *   which faults it in as a write would and fails instead of crashing; on kernels without it (before 5.14)
 *   process_vm_readv checks it can be read.</li>
 * </ul>
 * What FFM cannot guard is memory of the global scope (an address from native code, reinterpreted) or of an arena
 * confined to another thread, unmapped or made read-only by the application while its region is declared and between
 * the check and the access: that is the application's use after free, as for any access through such a segment.
 * Agent only.
 */
final class WordAtomics
{
    private static final long PAGE_BYTES = 4096;
    private static final int MADV_POPULATE_WRITE = 23;
    private static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
        Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final boolean populateWrite;
    private final MemorySegment capture;
    private final MemorySegment local;
    private final MemorySegment remote;
    private final MemorySegment scratch;

    WordAtomics(final Arena arena)
    {
        scratch = arena.allocate(PAGE_BYTES, PAGE_BYTES);
        capture = Libc.allocateCaptureState(arena);
        local = arena.allocate(Libc.IOVEC_BYTES, 8);
        remote = arena.allocate(Libc.IOVEC_BYTES, 8);
        populateWrite = madvise(scratch.address()) == 0;
    }

    /** @return whether the word at {@code address} can be written without a fault. */
    boolean writable(final long address, final int widthBytes)
    {
        if (populateWrite)
        {
            return madvise(address & -PAGE_BYTES) == 0;
        }
        Libc.putIovec(local, 0, scratch.address(), widthBytes);
        Libc.putIovec(remote, 0, address, widthBytes);
        return Libc.readv(capture, Libc.pid(), local, 1, remote, 1) == widthBytes;
    }

    /**
     * The word at {@code address}, which lies in {@code declared}: a slice of the declared segment when an arena that
     * this thread may access owns it, else a segment over the bare address.
     *
     * @return null if the declared segment's arena is closed: the memory is freed.
     */
    static MemorySegment word(final MemorySegment declared, final long address, final int widthBytes)
    {
        if (ReadablePages.arenaOwned(declared))
        {
            return declared.asSlice(address - declared.address(), widthBytes);
        }
        if (!declared.scope().isAlive())
        {
            return null;
        }
        return MemorySegment.ofAddress(address).reinterpret(widthBytes);
    }

    /**
     * Apply one operation to a naturally aligned word ({@link #word}).
     *
     * @param operand FETCH_ADD's addend, SWAP's new value, CAS's new value, ACCUMULATE's addend.
     * @param compare CAS's expected value.
     * @return the word before (zero-extended for 4 bytes).
     * @throws IllegalStateException if the word's arena was closed since {@link #word}: nothing was applied.
     */
    static long apply(final MemorySegment word, final int widthBytes, final int op, final long operand,
        final long compare)
    {
        if (widthBytes == Long.BYTES)
        {
            return switch (op)
            {
                case AtomicFrame.OP_FETCH_ADD, AtomicFrame.OP_ACCUMULATE -> (long)LONG.getAndAdd(word, 0L, operand);
                case AtomicFrame.OP_SWAP -> (long)LONG.getAndSet(word, 0L, operand);
                case AtomicFrame.OP_CAS -> (long)LONG.compareAndExchange(word, 0L, compare, operand);
                default -> throw new IllegalArgumentException("atomic op " + op);
            };
        }
        final int value = (int)operand;
        final int old = switch (op)
        {
            case AtomicFrame.OP_FETCH_ADD, AtomicFrame.OP_ACCUMULATE -> (int)INT.getAndAdd(word, 0L, value);
            case AtomicFrame.OP_SWAP -> (int)INT.getAndSet(word, 0L, value);
            case AtomicFrame.OP_CAS -> (int)INT.compareAndExchange(word, 0L, (int)compare, value);
            default -> throw new IllegalArgumentException("atomic op " + op);
        };
        return Integer.toUnsignedLong(old);
    }

    private static int madvise(final long pageAddress)
    {
        try
        {
            return (int)MADVISE.invokeExact(pageAddress, PAGE_BYTES, MADV_POPULATE_WRITE);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("madvise downcall failed", t);
        }
    }
}
