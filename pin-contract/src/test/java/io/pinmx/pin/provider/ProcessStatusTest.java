package io.pinmx.pin.provider;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessStatusTest
{
    @Test
    void aProcessRunsWhileItsPidKeepsTheStartTimeFirstSeen() throws Exception
    {
        final int self = (int)ProcessHandle.current().pid();
        final long started = ProcessStatus.startTime(self);
        assertNotEquals(ProcessStatus.EXITED, started);
        assertTrue(ProcessStatus.runs(self, started));
        assertFalse(ProcessStatus.runs(self, started + 1), "another start time is another process at a reused pid");
        assertFalse(ProcessStatus.runs(self, ProcessStatus.EXITED), "a process seen exited never runs again");

        final Process child = new ProcessBuilder("true").start();
        final int childPid = (int)child.pid();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertFalse(ProcessStatus.runs(childPid, ProcessStatus.startTime(childPid)));
        assertFalse(ProcessStatus.runs(0, 0));
    }
}
