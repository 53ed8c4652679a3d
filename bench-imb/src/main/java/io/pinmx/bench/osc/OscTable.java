package io.pinmx.bench.osc;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One implementation's output of the one-sided benchmarks (the Java programs' or the C baseline's), parsed into
 * sections: a section starts at a line {@code # TITLE} naming an {@link OscProgram}; its {@code # Implementation:}
 * line names who measured; its last {@code #} line names the columns; each following line that does not start with
 * {@code #} is a row: a key (size, N or operation) and numbers. Other lines (a launcher's notices) are skipped.
 */
public final class OscTable
{
    private static final Pattern COLUMN_GAP = Pattern.compile("\\s{2,}");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final Map<OscProgram, Section> sections;

    private OscTable(final Map<OscProgram, Section> sections)
    {
        this.sections = sections;
    }

    /** A row: its key as printed and its values. */
    public record Row(String key, double[] values)
    {
    }

    public record Section(OscProgram program, String implementation, List<String> columns, List<Row> rows)
    {
        /** @return the row with the key, or null. */
        public Row row(final String key)
        {
            for (final Row r : rows)
            {
                if (r.key().equals(key))
                {
                    return r;
                }
            }
            return null;
        }
    }

    /**
     * @throws IllegalArgumentException naming the line number and text of a row that is not a key and numbers, or
     *                                  whose count of values does not match its section's columns.
     */
    public static OscTable parse(final List<String> lines)
    {
        final Map<OscProgram, Section> sections = new EnumMap<>(OscProgram.class);
        Section current = null;
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty())
            {
                continue;
            }
            if (line.startsWith("#"))
            {
                final String text = line.substring(1).strip();
                final OscProgram program = programTitled(text);
                if (null != program)
                {
                    current = new Section(program, "", new ArrayList<>(), new ArrayList<>());
                    sections.put(program, current);
                }
                else if (null != current && current.rows().isEmpty())
                {
                    current = text.startsWith("Implementation:") ?
                        new Section(current.program(), text.substring("Implementation:".length()).strip(),
                            current.columns(), current.rows()) : current;
                    sections.put(current.program(), current);
                    current.columns().clear();
                    current.columns().addAll(List.of(COLUMN_GAP.split(text)));
                }
                continue;
            }
            if (null == current)
            {
                continue;
            }
            current.rows().add(row(line, i + 1, current.columns().size()));
        }
        return new OscTable(sections);
    }

    /**
     * Rounds of one implementation's output (the same programs run again, alternating with the other side's) as one
     * table: each value the median of the rounds' values (the upper one of an even count), for the sections and rows
     * every round has.
     *
     * @throws IllegalArgumentException if no round is given, or a section's columns differ between rounds.
     */
    public static OscTable median(final List<OscTable> rounds)
    {
        if (rounds.isEmpty())
        {
            throw new IllegalArgumentException("no rounds to take the median of");
        }
        final Map<OscProgram, Section> sections = new EnumMap<>(OscProgram.class);
        for (final Section first : rounds.getFirst().sections.values())
        {
            final List<Section> all = new ArrayList<>();
            for (final OscTable round : rounds)
            {
                final Section s = round.section(first.program());
                if (null != s && !s.columns().equals(first.columns()))
                {
                    throw new IllegalArgumentException(first.program().osuName() + ": columns " + s.columns() +
                        " in one round, " + first.columns() + " in another");
                }
                all.add(s);
            }
            if (!all.contains(null))
            {
                sections.put(first.program(), new Section(first.program(), first.implementation(), first.columns(),
                    medianRows(all)));
            }
        }
        return new OscTable(sections);
    }

    private static List<Row> medianRows(final List<Section> rounds)
    {
        final List<Row> rows = new ArrayList<>();
        for (final Row row : rounds.getFirst().rows())
        {
            final double[][] byColumn = new double[row.values().length][rounds.size()];
            boolean everywhere = true;
            for (int r = 0; r < rounds.size() && everywhere; r++)
            {
                final Row same = rounds.get(r).row(row.key());
                everywhere = null != same;
                for (int col = 0; everywhere && col < byColumn.length; col++)
                {
                    byColumn[col][r] = same.values()[col];
                }
            }
            if (everywhere)
            {
                final double[] medians = new double[byColumn.length];
                for (int col = 0; col < medians.length; col++)
                {
                    medians[col] = OscOptions.median(byColumn[col]);
                }
                rows.add(new Row(row.key(), medians));
            }
        }
        return rows;
    }

    /** @return the section of the program, or null if the output has none. */
    public Section section(final OscProgram program)
    {
        return sections.get(program);
    }

    private static OscProgram programTitled(final String text)
    {
        for (final OscProgram p : OscProgram.values())
        {
            if (p.title().equals(text))
            {
                return p;
            }
        }
        return null;
    }

    private static Row row(final String line, final int lineNumber, final int columns)
    {
        final String[] fields = WHITESPACE.split(line);
        if (fields.length != columns)
        {
            throw new IllegalArgumentException("line " + lineNumber + " '" + line + "': " + fields.length +
                " fields, the section's header names " + columns + " columns");
        }
        final double[] values = new double[fields.length - 1];
        for (int f = 1; f < fields.length; f++)
        {
            try
            {
                values[f - 1] = Double.parseDouble(fields[f]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("line " + lineNumber + " '" + line + "': field " + (f + 1) + " '" +
                    fields[f] + "' is not a number", ex);
            }
        }
        return new Row(fields[0], values);
    }
}
