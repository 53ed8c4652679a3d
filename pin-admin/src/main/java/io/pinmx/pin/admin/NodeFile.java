package io.pinmx.pin.admin;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A node-wide file a command reads or writes, and whether the user named it: a listing command opens it only when
 * it is there (opening creates it), and a file the user named whose directory is missing is a typo to report, where
 * the default one not created yet just lists empty.
 *
 * @param path  the file.
 * @param given named on the command line.
 */
record NodeFile(Path path, boolean given)
{
    /**
     * @return true when the file is there to be read; false when a listing has nothing to show.
     * @throws IllegalStateException naming the file when the user gave it in a directory that does not exist.
     */
    boolean readable(final String option)
    {
        if (Files.exists(path))
        {
            return true;
        }
        final Path parent = path.toAbsolutePath().getParent();
        if (given && (null == parent || !Files.isDirectory(parent)))
        {
            throw new IllegalStateException(option + " " + path + ": no directory " + parent);
        }
        return false;
    }
}
