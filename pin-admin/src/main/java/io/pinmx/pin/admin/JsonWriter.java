package io.pinmx.pin.admin;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the admin's reports as JSON: maps (keys in their iteration order), lists, strings, numbers, booleans
 * and null. Enough for {@code pinmx-admin --json}; not a general JSON library.
 */
final class JsonWriter
{
    private JsonWriter()
    {
    }

    /**
     * @param keysAndValues key, value, key, value...
     * @return a map keeping that order (JSON objects print their keys in it).
     */
    static Map<String, Object> object(final Object... keysAndValues)
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            map.put((String)keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /**
     * @param value a report.
     * @return it as one line of JSON.
     * @throws IllegalArgumentException naming a value of another type.
     */
    static String write(final Object value)
    {
        final StringBuilder out = new StringBuilder();
        append(out, value);
        return out.toString();
    }

    private static void append(final StringBuilder out, final Object value)
    {
        switch (value)
        {
            case null -> out.append("null");
            case String s -> string(out, s);
            case Boolean b -> out.append(b);
            case Integer i -> out.append(i);
            case Long l -> out.append(l);
            case Map<?, ?> map ->
            {
                out.append('{');
                final Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
                while (entries.hasNext())
                {
                    final Map.Entry<?, ?> entry = entries.next();
                    string(out, String.valueOf(entry.getKey()));
                    out.append(':');
                    append(out, entry.getValue());
                    if (entries.hasNext())
                    {
                        out.append(',');
                    }
                }
                out.append('}');
            }
            case List<?> list ->
            {
                out.append('[');
                for (int i = 0; i < list.size(); i++)
                {
                    if (i > 0)
                    {
                        out.append(',');
                    }
                    append(out, list.get(i));
                }
                out.append(']');
            }
            default -> throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void string(final StringBuilder out, final String s)
    {
        out.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
