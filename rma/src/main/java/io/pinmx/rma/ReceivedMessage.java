package io.pinmx.rma;

/**
 * A message {@link RmaMessages#receiveAny(int, java.lang.foreign.MemorySegment)} took ({@code armci_msg_rcvany}):
 * who sent it, a world rank, and its length in bytes.
 */
public record ReceivedMessage(int rank, long bytes)
{
}
