/**
 * Matching: the 64-bit match info rules, the posted-receive {@link io.pinmx.mx.match.MatchQueue}
 * and the bounded {@link io.pinmx.mx.match.UnexpectedQueue}, both in MPI order. Pure logic;
 * may call only {@link io.pinmx.mx.buffer} for unexpected-message storage.
 */
package io.pinmx.mx.match;
