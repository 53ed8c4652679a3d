package io.pinmx.job;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * The PMIx client calls of libpmix.so.2 (PMIx 4.x) through FFM, with the C layouts they take: pmix_proc_t (a
 * namespace of 256 bytes then a uint32 rank), pmix_value_t (a uint16 type then an 8-aligned union of 24 bytes),
 * pmix_info_t (a key of 512 bytes, uint32 flags, a value) and pmix_byte_object_t (a pointer and a size).
 * {@code PmixLayoutTest} checks these sizes and offsets against the installed header when it is present.
 * Loaded on first use: a process never started under PMIx never opens the library.
 */
final class PmixLibrary
{
    static final String LIBRARY = "libpmix.so.2";

    static final int SUCCESS = 0;
    static final int NAMESPACE_BYTES = 256;
    static final int KEY_BYTES = 512;
    static final int RANK_WILDCARD = 0xFFFF_FFFE;

    static final short TYPE_BOOL = 1;
    static final short TYPE_STRING = 3;
    static final short TYPE_UINT16 = 13;
    static final short TYPE_UINT32 = 14;
    static final short TYPE_PROC = 22;
    static final short TYPE_INFO = 24;
    static final short TYPE_BYTE_OBJECT = 27;
    static final short TYPE_PROC_INFO = 38;
    static final short TYPE_DATA_ARRAY = 39;
    static final short TYPE_PROC_RANK = 40;
    /** pmix_scope_t PMIX_GLOBAL: a put value every rank of the job may get. */
    static final byte SCOPE_GLOBAL = 3;

    /** Event codes a rank's death arrives as, depending on the server (abort, signal, exit without finalize). */
    static final int EVENT_PROC_ABORTED = -7;
    static final int EVENT_PROC_ABORTING = -9;
    static final int EVENT_PROC_TERMINATED = -201;
    static final int EVENT_PROC_TERM_WITHOUT_SYNC = -200;
    static final int EVENT_PROC_ABORTED_BY_SIGNAL = -402;
    static final int EVENT_PROC_KILLED_BY_COMMAND = -400;
    static final int EVENT_LOST_CONNECTION = -61;
    static final int EVENT_JOB_TERMINATED = -145;
    static final int EVENT_ACTION_COMPLETE = -334;

    static final String KEY_JOB_SIZE = "pmix.job.size";
    static final String KEY_LOCAL_PEERS = "pmix.lpeers";
    static final String KEY_COLLECT_DATA = "pmix.collect";
    static final String KEY_AFFECTED_PROC = "pmix.evproc";
    static final String KEY_NAMESPACE = "pmix.nspace";
    static final String QUERY_PROC_TABLE = "pmix.qry.ptable";

    static final MemoryLayout PROC = MemoryLayout.structLayout(
        MemoryLayout.sequenceLayout(NAMESPACE_BYTES, ValueLayout.JAVA_BYTE).withName("nspace"),
        ValueLayout.JAVA_INT.withName("rank"));
    static final long PROC_RANK_OFFSET = NAMESPACE_BYTES;
    static final long PROC_BYTES = PROC.byteSize();

    static final long VALUE_TYPE_OFFSET = 0;
    static final long VALUE_DATA_OFFSET = 8;
    static final long VALUE_BYTES = 32;
    /** pmix_byte_object_t within the value's union: the bytes' address, then their count. */
    static final long BYTE_OBJECT_SIZE_OFFSET = VALUE_DATA_OFFSET + 8;

    static final long INFO_FLAGS_OFFSET = KEY_BYTES;
    static final long INFO_VALUE_OFFSET = 520;
    static final long INFO_BYTES = 552;

    /** pmix_query_t: a NULL-terminated array of keys, then the qualifiers and their count. */
    static final long QUERY_KEYS_OFFSET = 0;
    static final long QUERY_QUALIFIERS_OFFSET = 8;
    static final long QUERY_QUALIFIER_COUNT_OFFSET = 16;
    static final long QUERY_BYTES = 24;

    /** pmix_data_array_t: the elements' type, their count and their address. */
    static final long DATA_ARRAY_TYPE_OFFSET = 0;
    static final long DATA_ARRAY_SIZE_OFFSET = 8;
    static final long DATA_ARRAY_ARRAY_OFFSET = 16;
    static final long DATA_ARRAY_BYTES = 24;

    /** pmix_proc_info_t: the process, its host's and executable's names, pid, exit code and state. */
    static final long PROC_INFO_HOSTNAME_OFFSET = 264;
    static final long PROC_INFO_PID_OFFSET = 280;
    static final long PROC_INFO_EXIT_CODE_OFFSET = 284;
    static final long PROC_INFO_STATE_OFFSET = 288;
    static final long PROC_INFO_BYTES = 296;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;

    private static volatile PmixLibrary loaded;

    final MethodHandle init;
    final MethodHandle finalizeClient;
    final MethodHandle get;
    final MethodHandle put;
    final MethodHandle commit;
    final MethodHandle fence;
    final MethodHandle errorString;
    final MethodHandle valueDestruct;
    final MethodHandle free;
    final MethodHandle registerEventHandler;
    final MethodHandle queryInfo;

    private PmixLibrary(final SymbolLookup pmix)
    {
        final ValueLayout.OfInt status = ValueLayout.JAVA_INT;
        final ValueLayout pointer = ValueLayout.ADDRESS;
        init = handle(pmix, "PMIx_Init", FunctionDescriptor.of(status, pointer, pointer, SIZE_T));
        finalizeClient = handle(pmix, "PMIx_Finalize", FunctionDescriptor.of(status, pointer, SIZE_T));
        get = handle(pmix, "PMIx_Get", FunctionDescriptor.of(status, pointer, pointer, pointer, SIZE_T, pointer));
        put = handle(pmix, "PMIx_Put", FunctionDescriptor.of(status, ValueLayout.JAVA_BYTE, pointer, pointer));
        commit = handle(pmix, "PMIx_Commit", FunctionDescriptor.of(status));
        fence = handle(pmix, "PMIx_Fence", FunctionDescriptor.of(status, pointer, SIZE_T, pointer, SIZE_T));
        errorString = handle(pmix, "PMIx_Error_string", FunctionDescriptor.of(pointer, status));
        valueDestruct = handle(pmix, "PMIx_Value_destruct", FunctionDescriptor.ofVoid(pointer));
        registerEventHandler = handle(pmix, "PMIx_Register_event_handler",
            FunctionDescriptor.of(status, pointer, SIZE_T, pointer, SIZE_T, pointer, pointer, pointer));
        queryInfo = handle(pmix, "PMIx_Query_info", FunctionDescriptor.of(status, pointer, SIZE_T, pointer, pointer));
        free = LINKER.downcallHandle(LINKER.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(pointer));
    }

    /**
     * @throws IllegalStateException naming the library when it cannot be loaded (libpmix2 not installed).
     */
    static PmixLibrary load()
    {
        PmixLibrary library = loaded;
        if (null == library)
        {
            synchronized (PmixLibrary.class)
            {
                library = loaded;
                if (null == library)
                {
                    final SymbolLookup lookup;
                    try
                    {
                        lookup = SymbolLookup.libraryLookup(LIBRARY, Arena.global());
                    }
                    catch (final IllegalArgumentException ex)
                    {
                        throw new IllegalStateException("PMIx: cannot load " + LIBRARY + " (install libpmix2, or " +
                            "start the job with bin/pinmx-run -np N): " + ex.getMessage(), ex);
                    }
                    library = new PmixLibrary(lookup);
                    loaded = library;
                }
            }
        }
        return library;
    }

    private static MethodHandle handle(final SymbolLookup lookup, final String name, final FunctionDescriptor descriptor)
    {
        final MemorySegment symbol = lookup.find(name)
            .orElseThrow(() -> new IllegalStateException("PMIx: " + LIBRARY + " has no " + name));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    /** PMIx's own text for a status code. */
    String describe(final int status)
    {
        try
        {
            final MemorySegment text = (MemorySegment)errorString.invokeExact(status);
            return MemorySegment.NULL.equals(text) ? "status " + status :
                text.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8) + " (" + status + ")";
        }
        catch (final Throwable ex)
        {
            return "status " + status;
        }
    }

    /**
     * @throws IllegalStateException naming the call and PMIx's text for the status when it is not success.
     */
    void check(final int status, final String call)
    {
        if (SUCCESS != status)
        {
            throw new IllegalStateException("PMIx: " + call + " failed: " + describe(status));
        }
    }

    static MemorySegment allocateProc(final Arena arena, final String namespace, final int rank)
    {
        final MemorySegment proc = arena.allocate(PROC_BYTES, 8);
        final byte[] name = namespace.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(name, 0, proc, ValueLayout.JAVA_BYTE, 0, Math.min(name.length, NAMESPACE_BYTES - 1));
        proc.set(ValueLayout.JAVA_INT, PROC_RANK_OFFSET, rank);
        return proc;
    }

    static String namespace(final MemorySegment proc)
    {
        return proc.reinterpret(PROC_BYTES).getString(0, StandardCharsets.UTF_8);
    }

    static int rank(final MemorySegment proc)
    {
        return proc.reinterpret(PROC_BYTES).get(ValueLayout.JAVA_INT, PROC_RANK_OFFSET);
    }

    /** One pmix_info_t holding a boolean, e.g. {@value #KEY_COLLECT_DATA}. */
    static MemorySegment allocateBooleanInfo(final Arena arena, final String key, final boolean value)
    {
        final MemorySegment info = arena.allocate(INFO_BYTES, 8);
        info.setString(0, key, StandardCharsets.US_ASCII);
        info.set(ValueLayout.JAVA_SHORT, INFO_VALUE_OFFSET + VALUE_TYPE_OFFSET, TYPE_BOOL);
        info.set(ValueLayout.JAVA_BYTE, INFO_VALUE_OFFSET + VALUE_DATA_OFFSET, (byte)(value ? 1 : 0));
        return info;
    }

    /** One pmix_info_t holding a string, e.g. {@value #KEY_NAMESPACE}; the string lives in {@code arena}. */
    static MemorySegment allocateStringInfo(final Arena arena, final String key, final String value)
    {
        final MemorySegment info = arena.allocate(INFO_BYTES, 8);
        info.setString(0, key, StandardCharsets.US_ASCII);
        info.set(ValueLayout.JAVA_SHORT, INFO_VALUE_OFFSET + VALUE_TYPE_OFFSET, TYPE_STRING);
        info.set(ValueLayout.ADDRESS, INFO_VALUE_OFFSET + VALUE_DATA_OFFSET, arena.allocateFrom(value));
        return info;
    }

    /** @return the C string at {@code address}, or null for a null pointer. */
    static String string(final MemorySegment address)
    {
        return MemorySegment.NULL.equals(address) ? null :
            address.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    static String infoKey(final MemorySegment info)
    {
        return info.getString(0, StandardCharsets.US_ASCII);
    }
}
