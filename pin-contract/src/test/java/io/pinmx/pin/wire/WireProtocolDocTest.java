package io.pinmx.pin.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/wire-protocol.md is what the kernel module is written from: every byte table in it must
 * agree with the codec's offsets, widths and lengths, field by field.
 */
class WireProtocolDocTest
{
    private static final Path DOC = Path.of("..", "docs", "wire-protocol.md");
    private static final Pattern SECTION = Pattern.compile("^#{2,3} (.+)$");
    private static final Pattern FIELD_ROW = Pattern.compile("^\\| (\\d+) \\| (u8|u16|u32|u64|u8\\[3]|payload) \\| ([a-z ]+) \\|.*");
    private static final Pattern KIND_SECTION = Pattern.compile("^([A-Z_]+) \\((\\d+)\\).*");
    private static final Pattern KIND_ROW = Pattern.compile("^\\| (\\d+) \\| ([A-Z_]+) \\| (\\d+) \\| (\\d+) \\|.*");

    private record Field(int offset, String width, String name)
    {
    }

    private static Map<String, List<Field>> tablesBySection(final List<String> lines)
    {
        final Map<String, List<Field>> tables = new LinkedHashMap<>();
        String section = "";
        for (final String line : lines)
        {
            final Matcher heading = SECTION.matcher(line);
            if (heading.matches())
            {
                section = heading.group(1);
                continue;
            }
            final Matcher row = FIELD_ROW.matcher(line);
            if (row.matches())
            {
                tables.computeIfAbsent(section, s -> new ArrayList<>())
                    .add(new Field(Integer.parseInt(row.group(1)), row.group(2), row.group(3).trim()));
            }
        }
        return tables;
    }

    private static int widthBytes(final String width)
    {
        return switch (width)
        {
            case "u8" -> 1;
            case "u16" -> 2;
            case "u32" -> 4;
            case "u64" -> 8;
            case "u8[3]" -> 3;
            default -> throw new IllegalArgumentException(width);
        };
    }

    private static int constant(final Class<?> type, final String name) throws ReflectiveOperationException
    {
        return type.getField(name).getInt(null);
    }

    private static void assertTable(
        final String section, final List<Field> fields, final Class<?> type, final int start, final int end, final boolean common)
        throws ReflectiveOperationException
    {
        int expectedOffset = start;
        for (final Field field : fields)
        {
            if (field.width().equals("payload"))
            {
                assertEquals(end, field.offset(), section + ": payload offset");
                continue;
            }
            assertEquals(expectedOffset, field.offset(), section + ": field '" + field.name() + "' offset (gap or overlap)");
            final String constantName;
            if (field.name().equals("reserved"))
            {
                constantName = common ? "RESERVED_OFFSET" : "RESERVED_PART_OFFSET";
            }
            else
            {
                constantName = field.name().toUpperCase(Locale.ROOT).replace(' ', '_') + "_OFFSET";
            }
            assertEquals(field.offset(), constant(type, constantName), section + ": " + type.getSimpleName() + "." + constantName);
            expectedOffset += widthBytes(field.width());
        }
        assertEquals(end, expectedOffset, section + ": fields end where the header ends");
    }

    @Test
    void everyByteTableMatchesTheCodec() throws Exception
    {
        final List<String> lines = Files.readAllLines(DOC);
        final Map<String, List<Field>> tables = tablesBySection(lines);
        assertTable("Common header (32 bytes)", tables.get("Common header (32 bytes)"), FrameFlyweight.class, 0,
            FrameFlyweight.HEADER_BYTES, true);

        final Map<FrameKind, Class<?>> flyweights = Map.ofEntries(
            Map.entry(FrameKind.CONNECT_REQUEST, ConnectFrame.class),
            Map.entry(FrameKind.CONNECT_REPLY, ConnectFrame.class),
            Map.entry(FrameKind.TINY, EagerFrame.class),
            Map.entry(FrameKind.SMALL, EagerFrame.class),
            Map.entry(FrameKind.MEDIUM_FRAG, MediumFragFrame.class),
            Map.entry(FrameKind.RNDV, RndvFrame.class),
            Map.entry(FrameKind.PULL, PullFrame.class),
            Map.entry(FrameKind.PULL_REPLY, PullReplyFrame.class),
            Map.entry(FrameKind.NOTIFY, NotifyFrame.class),
            Map.entry(FrameKind.ACK, AckFrame.class),
            Map.entry(FrameKind.NACK, NackFrame.class),
            Map.entry(FrameKind.PUT, PutFrame.class),
            Map.entry(FrameKind.PUT_ACK, PutAckFrame.class),
            Map.entry(FrameKind.ATOMIC, AtomicFrame.class),
            Map.entry(FrameKind.ATOMIC_REPLY, AtomicReplyFrame.class));
        int kindTables = 0;
        for (final Map.Entry<String, List<Field>> table : tables.entrySet())
        {
            final Matcher kindCode = KIND_SECTION.matcher(table.getKey());
            if (table.getKey().startsWith("Common") || !kindCode.matches())
            {
                continue;
            }
            final FrameKind kind = FrameKind.valueOf(kindCode.group(1));
            assertEquals(kind.code(), Integer.parseInt(kindCode.group(2)), table.getKey() + ": code of " + kind);
            assertTable(table.getKey(), table.getValue(), flyweights.get(kind), FrameFlyweight.HEADER_BYTES,
                kind.headerBytes(), false);
            kindTables++;
        }
        assertEquals(13, kindTables, "one table per kind, CONNECT_* and TINY/SMALL sharing theirs");
    }

    @Test
    void theKindsTableMatchesFrameKind() throws Exception
    {
        int rows = 0;
        for (final String line : Files.readAllLines(DOC))
        {
            final Matcher row = KIND_ROW.matcher(line);
            if (row.matches())
            {
                final FrameKind kind = FrameKind.valueOf(row.group(2));
                assertEquals(kind.code(), Integer.parseInt(row.group(1)), kind + " code");
                assertEquals(kind.kindPartBytes(), Integer.parseInt(row.group(3)), kind + " kind part bytes");
                assertEquals(kind.headerBytes(), Integer.parseInt(row.group(4)), kind + " header bytes");
                rows++;
            }
        }
        assertEquals(FrameKind.values().length, rows);
    }
}
