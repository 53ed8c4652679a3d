package io.pinmx.rma;

/**
 * What {@link RmaMessages#receiveAny(int, java.lang.foreign.MemorySegment)} received ({@code armci_msg_rcvany}):
 * the sender's world rank and the message's length in bytes.
 */
public record ReceivedMessage(int rank, long bytes)
{
}
