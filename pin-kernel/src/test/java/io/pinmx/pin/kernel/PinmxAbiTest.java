package io.pinmx.pin.kernel;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compiles src/test/c/pinmx_abi_dump.c with gcc against kmod/include/uapi/pinmx.h, runs it, and compares every
 * struct size, field offset and size, constant, ioctl number and counter index it prints with
 * {@link PinmxAbi} and {@link KernelCounter}. Any difference fails, naming it; so does a struct or constant the
 * Java side has and the C program does not print.
 */
class PinmxAbiTest
{
    private static final long GCC_TIMEOUT_S = 60;

    @TempDir
    static Path work;

    private static final Map<String, Long> STRUCT_SIZES = new TreeMap<>();
    private static final Map<String, String> FIELDS = new TreeMap<>();
    private static final Map<String, Long> CONSTANTS = new TreeMap<>();
    private static final Map<String, Integer> COUNTERS = new TreeMap<>();

    @BeforeAll
    static void dumpTheHeader() throws IOException, InterruptedException
    {
        final Path module = Path.of("").toAbsolutePath();
        final Path header = module.getParent().resolve("kmod/include/uapi/pinmx.h");
        assertTrue(Files.exists(header), "no uapi header at " + header);
        final Path binary = work.resolve("pinmx_abi_dump");
        final String compilerOutput = run(List.of("gcc", "-Wall", "-Werror", "-I", header.getParent().toString(),
            module.resolve("src/test/c/pinmx_abi_dump.c").toString(), "-o", binary.toString()));
        assertTrue(Files.isExecutable(binary), "gcc produced no program: " + compilerOutput);
        for (final String line : run(List.of(binary.toString())).split("\n"))
        {
            final String[] parts = line.trim().split(" ");
            switch (parts[0])
            {
                case "struct" -> STRUCT_SIZES.put(parts[1], Long.parseLong(parts[2]));
                case "field" -> FIELDS.put(parts[1], parts[2] + " " + parts[3]);
                case "const" -> CONSTANTS.put(parts[1], Long.parseUnsignedLong(parts[2]));
                case "counter" -> COUNTERS.put(parts[1], Integer.parseInt(parts[2]));
                default -> throw new AssertionError("unexpected line from the C program: " + line);
            }
        }
        assertTrue(STRUCT_SIZES.size() > 10 && CONSTANTS.size() > 20, "C program printed too little");
    }

    private static String run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process;
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException e)
        {
            throw new AssertionError("cannot run " + command.getFirst() + " (gcc must be installed): " + e.getMessage(), e);
        }
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(GCC_TIMEOUT_S, TimeUnit.SECONDS), command + " did not finish");
        assertEquals(0, process.exitValue(), command + " failed:\n" + output);
        return output;
    }

    @Test
    void everyStructHasTheHeadersSizeAndFieldOffsets()
    {
        final List<String> differences = new ArrayList<>();
        final Map<String, String> javaFields = new TreeMap<>();
        for (final StructLayout struct : PinmxAbi.STRUCTS)
        {
            final String name = struct.name().orElseThrow();
            final Long cSize = STRUCT_SIZES.get(name);
            if (null == cSize || cSize != struct.byteSize())
            {
                differences.add("struct " + name + ": Java " + struct.byteSize() + " bytes, C " + cSize);
            }
            long offset = 0;
            for (final MemoryLayout member : struct.memberLayouts())
            {
                if (!(member instanceof PaddingLayout))
                {
                    javaFields.put(name + "." + member.name().orElseThrow(), offset + " " + member.byteSize());
                }
                offset += member.byteSize();
            }
        }
        for (final String name : STRUCT_SIZES.keySet())
        {
            if (PinmxAbi.STRUCTS.stream().noneMatch(s -> s.name().orElseThrow().equals(name)))
            {
                differences.add("struct " + name + " has no Java layout");
            }
        }
        for (final Map.Entry<String, String> c : FIELDS.entrySet())
        {
            final String java = javaFields.get(c.getKey());
            if (!c.getValue().equals(java))
            {
                differences.add("field " + c.getKey() + " (offset size): C " + c.getValue() + ", Java " + java);
            }
        }
        for (final String field : javaFields.keySet())
        {
            if (!FIELDS.containsKey(field))
            {
                differences.add("field " + field + " is in the Java layout only");
            }
        }
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }

    @Test
    void everyConstantAndIoctlNumberHasTheHeadersValue() throws IllegalAccessException
    {
        final List<String> differences = new ArrayList<>();
        for (final Map.Entry<String, Long> c : CONSTANTS.entrySet())
        {
            final String javaName = c.getKey().substring("PINMX_".length());
            if (javaName.equals("CNT_NR"))
            {
                if (KernelCounter.values().length != c.getValue())
                {
                    differences.add("PINMX_CNT_NR " + c.getValue() + ", KernelCounter has " + KernelCounter.values().length);
                }
                continue;
            }
            final long java;
            try
            {
                final Field field = PinmxAbi.class.getDeclaredField(javaName);
                field.setAccessible(true);
                java = ((Number)field.get(null)).longValue();
            }
            catch (final NoSuchFieldException e)
            {
                differences.add(c.getKey() + " has no PinmxAbi." + javaName);
                continue;
            }
            final long javaUnsigned = javaName.startsWith("IOC_") ? java & 0xFFFF_FFFFL : java;
            if (javaUnsigned != c.getValue())
            {
                differences.add(c.getKey() + ": C 0x" + Long.toHexString(c.getValue()) + ", Java 0x" +
                    Long.toHexString(javaUnsigned));
            }
        }
        for (final Field field : PinmxAbi.class.getDeclaredFields())
        {
            final int modifiers = field.getModifiers();
            if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) &&
                (field.getType() == int.class || field.getType() == long.class) &&
                !CONSTANTS.containsKey("PINMX_" + field.getName()))
            {
                differences.add("PinmxAbi." + field.getName() + " is not printed from the header");
            }
        }
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }

    /** KernelEventRing reads a failed atomic's error and NACK reason where a pull event has them. */
    @Test
    void anAtomicEventHasItsErrorAndNackReasonWhereAPullEventHasThem()
    {
        assertEquals(FIELDS.get("pinmx_pull_event.error"), FIELDS.get("pinmx_atomic_event.error"));
        assertEquals(FIELDS.get("pinmx_pull_event.nack_reason"), FIELDS.get("pinmx_atomic_event.nack_reason"));
        assertEquals(PinmxAbi.PULL_EVENT_ERROR, PinmxAbi.ATOMIC_EVENT_ERROR);
        assertEquals(PinmxAbi.PULL_EVENT_NACK_REASON, PinmxAbi.ATOMIC_EVENT_NACK_REASON);
    }

    @Test
    void everyCounterHasTheHeadersIndex()
    {
        final List<String> differences = new ArrayList<>();
        for (final Map.Entry<String, Integer> c : COUNTERS.entrySet())
        {
            final String javaName = c.getKey().substring("PINMX_CNT_".length());
            try
            {
                final int ordinal = KernelCounter.valueOf(javaName).ordinal();
                if (ordinal != c.getValue())
                {
                    differences.add(c.getKey() + ": C " + c.getValue() + ", KernelCounter." + javaName + " " + ordinal);
                }
            }
            catch (final IllegalArgumentException e)
            {
                differences.add(c.getKey() + " has no KernelCounter." + javaName);
            }
        }
        assertEquals(KernelCounter.values().length, COUNTERS.size(), "counters printed vs KernelCounter constants");
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }
}
