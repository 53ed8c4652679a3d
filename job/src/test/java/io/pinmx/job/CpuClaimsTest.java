package io.pinmx.job;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The host's CPU claims: a CPU another live process holds is passed over, a dead one's claim is taken over. */
class CpuClaimsTest
{
    @TempDir
    Path dir;

    private Process other;

    @AfterEach
    void stopOther()
    {
        if (null != other)
        {
            other.destroyForcibly();
        }
    }

    private static String ownerText(final ProcessHandle process)
    {
        return process.pid() + " " + process.info().startInstant().orElseThrow().toEpochMilli();
    }

    private void claimedBy(final ProcessHandle process, final int cpu) throws Exception
    {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cpu-" + cpu), ownerText(process));
    }

    @Test
    void aCpuAnotherProcessHoldsIsPassedOverForTheNextFreeOne() throws Exception
    {
        other = new ProcessBuilder("sleep", "120").start();
        claimedBy(other.toHandle(), 0);
        final CpuClaims claims = new CpuClaims(dir);
        final CpuClaims.Outcome outcome = claims.claim(new int[] {0, 1}, 0);
        assertEquals(new CpuClaims.Outcome(1, true, other.pid()), outcome);
        assertEquals(ownerText(ProcessHandle.current()), Files.readString(dir.resolve("cpu-1")));
        claims.release(1);
        assertFalse(Files.exists(dir.resolve("cpu-1")));
        assertEquals(ownerText(other.toHandle()), Files.readString(dir.resolve("cpu-0")), "another's claim was touched");
    }

    @Test
    void whenEveryCpuIsHeldThePreferredOneIsReturnedUnclaimedWithItsHolder() throws Exception
    {
        other = new ProcessBuilder("sleep", "120").start();
        claimedBy(other.toHandle(), 4);
        claimedBy(other.toHandle(), 5);
        final CpuClaims claims = new CpuClaims(dir);
        assertEquals(new CpuClaims.Outcome(5, false, other.pid()), claims.claim(new int[] {4, 5}, 1));
    }

    @Test
    void aDeadProcesssClaimIsTakenOverAndAProcessSharesItsOwn() throws Exception
    {
        final Process dead = new ProcessBuilder("sleep", "120").start();
        final String text = ownerText(dead.toHandle());
        dead.destroyForcibly();
        assertTrue(dead.waitFor(30, TimeUnit.SECONDS));
        Files.writeString(dir.resolve("cpu-7"), text);
        final CpuClaims claims = new CpuClaims(dir);
        assertEquals(new CpuClaims.Outcome(7, true, -1), claims.claim(new int[] {7}, 0));
        // A second thread of this process binding there shares the claim; the file goes with the last release.
        assertEquals(new CpuClaims.Outcome(7, true, -1), claims.claim(new int[] {7}, 0));
        claims.release(7);
        assertTrue(Files.exists(dir.resolve("cpu-7")));
        claims.release(7);
        assertFalse(Files.exists(dir.resolve("cpu-7")));
        try (var left = Files.list(dir))
        {
            assertEquals(0, left.count(), "files left behind");
        }
    }
}
