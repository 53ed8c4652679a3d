package io.pinmx.mpj.niodev;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts an MPJ Express program on MPJ's own niodev device with N JVMs on this host, without MPJ's daemons
 * (the baseline of the MPJ benchmarks). niodev 0.44 does not read a machines file: its init gets, as MPJ's
 * config argument, the job's size, protocol switch limit and the address of a port server, opens its two
 * server sockets on free ports, tells the port server "Sending Info", its write port, read port and rank, and
 * reads back every rank's "host@readPort@writePort@rank@debugPort", in rank order after "#Peer Information".
 * MPJ's launcher (MPJRun) is that port server when its daemons start the ranks; this class plays it
 * ({@link PortServer}) and starts the ranks itself with this JVM's class path and flags.
 * <p>
 * {@code NiodevJob [--port-server ADDRESS] [--rank-prefix RANK COMMAND]... [--rank-jvm-options RANK OPTIONS]... -np N
 * MAIN_CLASS ARGS...}: each rank runs {@code MAIN_CLASS RANK CONFIG niodev ARGS...}, with its own JVM options (split
 * at white space) after this JVM's, and with {@code MPJ_HOME} (MPI.Init reads
 * {@code conf/mpjexpress.conf} there), its main thread bound to the rank's CPU when PINMX_BIND=core, as pinmx's
 * device binds its ranks ({@link BoundRank}). A rank's prefix (COMMAND split at white space, such as
 * {@code ip netns exec NS} or {@code taskset -c 1}) runs its JVM, so ranks can sit in different network namespaces;
 * the port server then listens on ADDRESS (default loopback), which every rank must reach. Rank 0's stdout is this
 * program's; the others' output goes to stderr prefixed {@code [niodev rank r]}. Exits with the first failing rank's
 * status (the others are then destroyed), 0 when all exit 0.
 */
public final class NiodevJob
{
    /** MPJRun's default eager/rendezvous switch of niodev (bytes). */
    static final int PROTOCOL_SWITCH_LIMIT_BYTES = 131072;
    private static final long RANK_DEADLINE_MS = TimeUnit.MINUTES.toMillis(30);

    private NiodevJob()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final JobOptions options;
        try
        {
            options = JobOptions.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("niodev job: " + ex.getMessage());
            System.exit(2);
            return;
        }
        final int ranks = options.ranks();
        try (PortServer server = new PortServer(ranks, options.portServer()))
        {
            final Thread serving = Thread.ofPlatform().name("niodev-port-server").daemon().start(server::serve);
            final List<Process> processes = new ArrayList<>();
            final String config = config(ranks, options.portServer(), server.port());
            for (int r = 0; r < ranks; r++)
            {
                processes.add(start(r, ranks, options.prefixes().getOrDefault(r, List.of()),
                    options.jvmOptions().getOrDefault(r, List.of()), options.mainClass(), config,
                    options.programArgs()));
            }
            final int status = awaitAll(processes);
            serving.join(TimeUnit.SECONDS.toMillis(1));
            System.out.flush();
            System.exit(status);
        }
    }

    /** niodev's config argument: ';'-separated name/value tokens, as MPJRun writes them. */
    static String config(final int ranks, final InetAddress server, final int serverPort)
    {
        return "#Number of Processes;" + ranks + ";#Protocol Switch Limit;" + PROTOCOL_SWITCH_LIMIT_BYTES +
            ";#Server Name;" + server.getHostAddress() + ";#Server Port;" + serverPort;
    }

    private static Process start(final int rank, final int ranks, final List<String> prefix,
        final List<String> jvmOptions, final String mainClass, final String config, final List<String> programArgs)
        throws IOException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BoundRank.class.getName());
        command.add(Integer.toString(ranks));
        command.add(mainClass);
        command.add(Integer.toString(rank));
        command.add(config);
        command.add("niodev");
        command.addAll(programArgs);
        final ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putIfAbsent("MPJ_HOME", "/usr/share/mpj");
        if (0 == rank)
        {
            pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            final Process p = pb.start();
            prefix(p, rank);
            return p;
        }
        pb.redirectErrorStream(true);
        final Process p = pb.start();
        prefix(p, rank);
        return p;
    }

    /** Copies the rank's stderr (its stdout too, for ranks above 0) to this stderr, line by line, prefixed. */
    private static void prefix(final Process p, final int rank)
    {
        final String tag = "[niodev rank " + rank + "] ";
        Thread.ofPlatform().daemon().start(() ->
        {
            final java.io.InputStream from = 0 == rank ? p.getErrorStream() : p.getInputStream();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = in.readLine()))
                {
                    System.err.println(tag + line);
                }
            }
            catch (final IOException ignored)
            {
                // the rank ended
            }
        });
    }

    private static int awaitAll(final List<Process> processes) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RANK_DEADLINE_MS);
        int status = 0;
        final List<Process> alive = new ArrayList<>(processes);
        while (!alive.isEmpty())
        {
            if (System.nanoTime() > deadlineNs)
            {
                System.err.println("niodev job: ranks still running after " + RANK_DEADLINE_MS + " ms; destroying them");
                alive.forEach(Process::destroyForcibly);
                return 124;
            }
            for (final Process p : List.copyOf(alive))
            {
                if (p.waitFor(50, TimeUnit.MILLISECONDS))
                {
                    alive.remove(p);
                    if (0 != p.exitValue() && 0 == status)
                    {
                        status = p.exitValue();
                        System.err.println("niodev job: rank " + processes.indexOf(p) + " exited with status " +
                            status + "; stopping the others");
                        alive.forEach(Process::destroy);
                    }
                }
            }
        }
        return status;
    }

    /** The port server MPJRun runs for niodev: gathers each rank's two ports, then tells every rank all of them. */
    static final class PortServer implements AutoCloseable
    {
        private static final String HELLO = "Sending Info";
        private static final String PEERS = "#Peer Information";
        private static final int ACCEPT_TIMEOUT_MS = 120_000;

        private final int ranks;
        private final ServerSocket socket;

        PortServer(final int ranks, final InetAddress address) throws IOException
        {
            this.ranks = ranks;
            socket = new ServerSocket();
            try
            {
                socket.bind(new InetSocketAddress(address, 0));
            }
            catch (final IOException ex)
            {
                socket.close();
                throw new IOException("niodev port server: cannot listen on " + address.getHostAddress() + ": " +
                    ex.getMessage(), ex);
            }
            socket.setSoTimeout(ACCEPT_TIMEOUT_MS);
        }

        int port()
        {
            return socket.getLocalPort();
        }

        void serve()
        {
            final Socket[] byRank = new Socket[ranks];
            final String[] entries = new String[ranks];
            try
            {
                for (int n = 0; n < ranks; n++)
                {
                    final Socket s = socket.accept();
                    final DataInputStream in = new DataInputStream(s.getInputStream());
                    final String hello = in.readUTF();
                    if (!hello.startsWith(HELLO))
                    {
                        throw new IOException("niodev port server: a rank said '" + hello + "', not '" + HELLO + "'");
                    }
                    final int writePort = in.readInt();
                    final int readPort = in.readInt();
                    final int rank = in.readInt();
                    if (rank < 0 || rank >= ranks || null != byRank[rank])
                    {
                        throw new IOException("niodev port server: rank " + rank + " is out of 0.." + (ranks - 1) +
                            " or came twice");
                    }
                    byRank[rank] = s;
                    entries[rank] = ";" + s.getInetAddress().getHostAddress() + "@" + readPort + "@" + writePort +
                        "@" + rank + "@0";
                }
                final String peers = PEERS + String.join("", entries);
                for (final Socket s : byRank)
                {
                    final DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    out.writeUTF(peers);
                    out.flush();
                    s.close();
                }
            }
            catch (final IOException ex)
            {
                System.err.println("niodev job: " + ex.getMessage());
            }
        }

        @Override
        public void close() throws IOException
        {
            socket.close();
        }
    }
}
