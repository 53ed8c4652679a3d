/**
 * Node-wide state shared by the processes of one host: the peer table (host name to boards) and
 * the counters each endpoint publishes. Each store is an interface with an in-memory
 * implementation for tests and a Chronicle Map implementation over a persisted file under
 * /dev/shm/pinmx. Nothing here is on the message path. {@link io.pinmx.pin.node.PeerNames} resolves host
 * names through the peer table ({@code HOST} or {@code HOST:BOARD} to a board address, as Open-MX's
 * mx_hostname_to_nic_id), for programs that connect endpoints themselves; a job's ranks exchange their
 * addresses through the job's bootstrap instead. Providers publish counters from time to time; an endpoint that
 * closes before its process opened the store leaves its final ones in {@link io.pinmx.pin.node.PendingCounters}
 * files beside it, which the store's next opener moves in. Chronicle Map is
 * touched only after {@link io.pinmx.pin.node.ChronicleFlags} found this JVM started with the flags it needs (the
 * parent pom's pinmx.jvm.opens, the one list); a JVM without them gets a message naming them, never Chronicle's
 * errors. Chronicle allocates a new file's memory when it creates it; a directory without room refuses the file
 * naming the directory, the bytes asked and free and the system property that moves it, and the file goes.
 * <p>
 * May call the JDK, Chronicle Map and {@link io.pinmx.pin.spi} value types.
 */
package io.pinmx.pin.node;
