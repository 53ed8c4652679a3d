package io.pinmx.mpj;

import io.pinmx.mpj.programs.DeadRank;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank killed with SIGKILL while the others wait on it (a receive naming it, an ANY_SOURCE receive, a barrier):
 * every survivor fails with an error naming the dead rank instead of hanging. The ranks are started here, the way
 * bin/pinmx-run starts them, because pinmx-run itself stops the others as soon as one rank dies.
 */
class DeadRankTest
{
    private static final long PEER_TIMEOUT_MS = 2000;
    private static final long SURVIVORS_DEADLINE_S = 120;
    private static final Pattern JVM_OPENS = Pattern.compile("<pinmx.jvm.opens>(.*)</pinmx.jvm.opens>");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void survivorsFailNamingTheDeadRank(final int ranks) throws Exception
    {
        final List<Process> processes = new ArrayList<>();
        try
        {
            for (int rank = 0; rank < ranks; rank++)
            {
                processes.add(start(rank, ranks));
            }
            final int last = ranks - 1;
            final Path victimOut = dir.resolve("out-" + last);
            await("rank " + last + " ready").atMost(SURVIVORS_DEADLINE_S, TimeUnit.SECONDS)
                .until(() -> Files.readString(victimOut).contains("ready"));
            processes.get(last).destroyForcibly().waitFor();
            for (int rank = 0; rank < last; rank++)
            {
                final Path out = dir.resolve("out-" + rank);
                final Path err = dir.resolve("err-" + rank);
                final Process p = processes.get(rank);
                await("rank " + rank + " fails").atMost(SURVIVORS_DEADLINE_S, TimeUnit.SECONDS)
                    .until(() -> Files.readString(out).contains("failed: ") || !p.isAlive());
                final String failure = Files.readString(out);
                assertTrue(failure.contains("failed: ") && failure.contains("rank " + last + " "),
                    "rank " + rank + "'s error does not name rank " + last + ":\n" + failure + Files.readString(err));
                final String operation = waitingOn(rank, last);
                assertTrue(null == operation || failure.contains(operation),
                    "rank " + rank + "'s error does not name its operation '" + operation + "':\n" + failure);
            }
            for (int rank = 0; rank < last; rank++)
            {
                final Process p = processes.get(rank);
                p.getOutputStream().close();
                assertTrue(p.waitFor(SURVIVORS_DEADLINE_S, TimeUnit.SECONDS), "rank " + rank + " did not exit");
                assertEquals(3, p.exitValue(), "rank " + rank + " did not fail as expected:\n" +
                    Files.readString(dir.resolve("out-" + rank)) + Files.readString(dir.resolve("err-" + rank)));
            }
        }
        finally
        {
            processes.forEach(Process::destroyForcibly);
        }
    }

    /** The operation, peer and tag DeadRank's rank waits in (null: a barrier, MPJ's own sends and receives). */
    private static String waitingOn(final int rank, final int last)
    {
        return switch (rank)
        {
            case 0 -> "receive from rank " + last + " (tag 1, context ";
            case 1 -> "receive from any rank (tag 1, context ";
            default -> null;
        };
    }

    private Process start(final int rank, final int ranks) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(jvmOpens().split(" ")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DeadRank.class.getName(),
            Integer.toString(rank), "pinmx-job", "mxdev"));
        final ProcessBuilder pb = new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectOutput(dir.resolve("out-" + rank).toFile())
            .redirectError(dir.resolve("err-" + rank).toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("PMI_") || k.startsWith("PINMX_"));
        pb.environment().put("PINMX_RANK", Integer.toString(rank));
        pb.environment().put("PINMX_SIZE", Integer.toString(ranks));
        pb.environment().put("PINMX_BOOTSTRAP", "file:" + dir.resolve("bootstrap"));
        pb.environment().put("PINMX_PEER_TIMEOUT_MS", Long.toString(PEER_TIMEOUT_MS));
        pb.environment().put("MPJ_HOME", "/usr/share/mpj");
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dpinmx.counters.file=" + dir.resolve("counters.dat"));
        return pb.start();
    }

    /** The flags every pinmx JVM carries, from the parent pom (as scripts/lib.sh reads them). */
    private static String jvmOpens() throws Exception
    {
        final Matcher m = JVM_OPENS.matcher(Files.readString(Path.of("..", "pom.xml")));
        assertTrue(m.find(), "no <pinmx.jvm.opens> in the parent pom");
        return m.group(1).trim();
    }

}
