package io.pinmx.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link PmixLibrary}'s layouts and constants against the installed PMIx header: a C program compiled here prints
 * the header's sizes, offsets and values, and each must equal the Java side's. Skipped, saying why, without gcc
 * or the header (libpmix-dev).
 */
class PmixLayoutTest
{
    private static final Path INCLUDE = Path.of("/usr/lib/x86_64-linux-gnu/pmix2/include");
    private static final Path GCC = Path.of("/usr/bin/gcc");
    private static final long COMPILE_DEADLINE_S = 120;

    private static final String PROGRAM = """
        #include <stdio.h>
        #include <stddef.h>
        #include <pmix.h>
        int main(void)
        {
            printf("%zu %zu %zu\\n", sizeof(pmix_proc_t), offsetof(pmix_proc_t, rank), (size_t)PMIX_MAX_NSLEN + 1);
            printf("%zu %zu %zu\\n", sizeof(pmix_value_t), offsetof(pmix_value_t, type), offsetof(pmix_value_t, data));
            printf("%zu %zu %zu %zu\\n", sizeof(pmix_info_t), offsetof(pmix_info_t, flags),
                offsetof(pmix_info_t, value), (size_t)PMIX_MAX_KEYLEN + 1);
            printf("%zu %zu\\n", sizeof(pmix_byte_object_t), offsetof(pmix_byte_object_t, size));
            printf("%d %d %d %d %d %d %d %d\\n", PMIX_BOOL, PMIX_STRING, PMIX_UINT16, PMIX_UINT32, PMIX_PROC,
                PMIX_BYTE_OBJECT, PMIX_PROC_RANK, PMIX_GLOBAL);
            printf("%d %d %d %d %d %d %d %d %d\\n", PMIX_ERR_PROC_ABORTED, PMIX_ERR_PROC_ABORTING,
                PMIX_EVENT_PROC_TERMINATED, PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_ERR_PROC_ABORTED_BY_SIG,
                PMIX_ERR_PROC_KILLED_BY_CMD, PMIX_ERR_LOST_CONNECTION, PMIX_EVENT_JOB_END, PMIX_EVENT_ACTION_COMPLETE);
            printf("%u\\n%s %s %s %s\\n", PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_LOCAL_PEERS, PMIX_COLLECT_DATA,
                PMIX_EVENT_AFFECTED_PROC);
            printf("%zu %zu %zu %zu\\n", sizeof(pmix_query_t), offsetof(pmix_query_t, keys),
                offsetof(pmix_query_t, qualifiers), offsetof(pmix_query_t, nqual));
            printf("%zu %zu %zu %zu\\n", sizeof(pmix_data_array_t), offsetof(pmix_data_array_t, type),
                offsetof(pmix_data_array_t, size), offsetof(pmix_data_array_t, array));
            printf("%zu %zu %zu %zu %zu %zu\\n", sizeof(pmix_proc_info_t), offsetof(pmix_proc_info_t, proc),
                offsetof(pmix_proc_info_t, hostname), offsetof(pmix_proc_info_t, pid),
                offsetof(pmix_proc_info_t, exit_code), offsetof(pmix_proc_info_t, state));
            printf("%zu %d %d %d %d %d\\n", sizeof(pmix_proc_state_t), PMIX_INFO, PMIX_PROC_INFO, PMIX_DATA_ARRAY,
                PMIX_PROC_STATE_TERMINATED, PMIX_PROC_STATE_ERROR);
            printf("%s %s\\n", PMIX_NSPACE, PMIX_QUERY_PROC_TABLE);
            return 0;
        }
        """;

    @TempDir
    Path dir;

    @Test
    void layoutsAndConstantsMatchTheHeader() throws Exception
    {
        assumeTrue(Files.isRegularFile(INCLUDE.resolve("pmix.h")), "needs PMIx's header (apt-get install libpmix-dev)");
        assumeTrue(Files.isExecutable(GCC), "needs gcc to read the header's layouts");
        Files.writeString(dir.resolve("layout.c"), PROGRAM);
        final Process compile = new ProcessBuilder(GCC.toString(), "-I" + INCLUDE, "-o", dir.resolve("layout").toString(),
            dir.resolve("layout.c").toString()).redirectErrorStream(true).start();
        assertTrue(compile.waitFor(COMPILE_DEADLINE_S, TimeUnit.SECONDS), "gcc did not finish");
        final String compiled = new String(compile.getInputStream().readAllBytes());
        assertEquals(0, compile.exitValue(), compiled);
        final Process run = new ProcessBuilder(dir.resolve("layout").toString()).redirectErrorStream(true).start();
        assertTrue(run.waitFor(COMPILE_DEADLINE_S, TimeUnit.SECONDS), "the layout program did not finish");
        final List<String> lines = new String(run.getInputStream().readAllBytes()).lines().toList();

        assertEquals(PmixLibrary.PROC_BYTES + " " + PmixLibrary.PROC_RANK_OFFSET + " " + PmixLibrary.NAMESPACE_BYTES,
            lines.get(0), "pmix_proc_t");
        assertEquals(PmixLibrary.VALUE_BYTES + " " + PmixLibrary.VALUE_TYPE_OFFSET + " " + PmixLibrary.VALUE_DATA_OFFSET,
            lines.get(1), "pmix_value_t");
        assertEquals(PmixLibrary.INFO_BYTES + " " + PmixLibrary.INFO_FLAGS_OFFSET + " " + PmixLibrary.INFO_VALUE_OFFSET +
            " " + PmixLibrary.KEY_BYTES, lines.get(2), "pmix_info_t");
        assertEquals("16 " + (PmixLibrary.BYTE_OBJECT_SIZE_OFFSET - PmixLibrary.VALUE_DATA_OFFSET), lines.get(3),
            "pmix_byte_object_t");
        assertEquals(PmixLibrary.TYPE_BOOL + " " + PmixLibrary.TYPE_STRING + " " + PmixLibrary.TYPE_UINT16 + " " +
            PmixLibrary.TYPE_UINT32 + " " + PmixLibrary.TYPE_PROC + " " + PmixLibrary.TYPE_BYTE_OBJECT + " " +
            PmixLibrary.TYPE_PROC_RANK + " " + PmixLibrary.SCOPE_GLOBAL, lines.get(4), "data types and scope");
        assertEquals(PmixLibrary.EVENT_PROC_ABORTED + " " + PmixLibrary.EVENT_PROC_ABORTING + " " +
            PmixLibrary.EVENT_PROC_TERMINATED + " " + PmixLibrary.EVENT_PROC_TERM_WITHOUT_SYNC + " " +
            PmixLibrary.EVENT_PROC_ABORTED_BY_SIGNAL + " " + PmixLibrary.EVENT_PROC_KILLED_BY_COMMAND + " " +
            PmixLibrary.EVENT_LOST_CONNECTION + " " + PmixLibrary.EVENT_JOB_TERMINATED + " " +
            PmixLibrary.EVENT_ACTION_COMPLETE, lines.get(5), "event codes");
        assertEquals(Integer.toUnsignedString(PmixLibrary.RANK_WILDCARD), lines.get(6), "PMIX_RANK_WILDCARD");
        assertEquals(PmixLibrary.KEY_JOB_SIZE + " " + PmixLibrary.KEY_LOCAL_PEERS + " " + PmixLibrary.KEY_COLLECT_DATA +
            " " + PmixLibrary.KEY_AFFECTED_PROC, lines.get(7), "keys");
        assertEquals(PmixLibrary.QUERY_BYTES + " " + PmixLibrary.QUERY_KEYS_OFFSET + " " +
            PmixLibrary.QUERY_QUALIFIERS_OFFSET + " " + PmixLibrary.QUERY_QUALIFIER_COUNT_OFFSET, lines.get(8),
            "pmix_query_t");
        assertEquals(PmixLibrary.DATA_ARRAY_BYTES + " " + PmixLibrary.DATA_ARRAY_TYPE_OFFSET + " " +
            PmixLibrary.DATA_ARRAY_SIZE_OFFSET + " " + PmixLibrary.DATA_ARRAY_ARRAY_OFFSET, lines.get(9),
            "pmix_data_array_t");
        assertEquals(PmixLibrary.PROC_INFO_BYTES + " 0 " + PmixLibrary.PROC_INFO_HOSTNAME_OFFSET + " " +
            PmixLibrary.PROC_INFO_PID_OFFSET + " " + PmixLibrary.PROC_INFO_EXIT_CODE_OFFSET + " " +
            PmixLibrary.PROC_INFO_STATE_OFFSET, lines.get(10), "pmix_proc_info_t");
        assertEquals("1 " + PmixLibrary.TYPE_INFO + " " + PmixLibrary.TYPE_PROC_INFO + " " +
            PmixLibrary.TYPE_DATA_ARRAY + " " + PmixProcess.STATE_TERMINATED + " " + PmixProcess.STATE_ERROR,
            lines.get(11), "process state (one byte), types, states");
        assertEquals(PmixLibrary.KEY_NAMESPACE + " " + PmixLibrary.QUERY_PROC_TABLE, lines.get(12), "query keys");
    }
}
