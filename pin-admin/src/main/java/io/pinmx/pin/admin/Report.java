package io.pinmx.pin.admin;

/**
 * What a command found, in both forms the admin prints: text for people, a JSON value for scripts
 * ({@code --json}), built from the same data.
 *
 * @param json maps, lists, strings, numbers, booleans ({@link JsonWriter}).
 * @param text lines for a terminal, each ending in a newline.
 */
record Report(Object json, String text)
{
}
