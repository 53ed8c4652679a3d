/**
 * Per-partner reliability as pure logic over an injected {@link io.pinmx.mx.reliability.NanoClock}:
 * sequence numbers with wraparound, the send window, go-back-N resend with bounded retries (none
 * while the frames wait unread in the partner's lossless receive queue), delayed and piggy-backed
 * acks, and the partner connection state machine. Calls nothing else in pinmx.
 */
package io.pinmx.mx.reliability;
