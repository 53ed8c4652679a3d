package io.pinmx.apps.spmv;

import java.util.Arrays;

/**
 * Which remote vector elements a rank's rows need: the distinct columns outside its block, sorted (so grouped by
 * owner), each given a ghost slot after the rank's own elements; every nonzero's column mapped to its slot.
 */
final class GhostPlan
{
    /** Per nonzero: the element's slot, own elements first, then the ghosts. */
    final int[] columnSlots;
    /** Global column of each ghost, sorted. */
    final int[] ghostColumns;
    /** Owner of each ghost. */
    final int[] ghostOwners;
    /** Byte offset of each ghost in its owner's slice of the vector. */
    final long[] ghostRemoteOffsets;
    /** Ghosts of rank r are [ownerStarts[r], ownerStarts[r + 1]). */
    final int[] ownerStarts;

    GhostPlan(final CsrRows rows, final RowBlocks blocks, final int ranks)
    {
        final int[] remote = Arrays.stream(rows.columns).filter(c -> c < rows.first || c >= rows.last).sorted()
            .distinct().toArray();
        ghostColumns = remote;
        ghostOwners = new int[remote.length];
        ghostRemoteOffsets = new long[remote.length];
        ownerStarts = new int[ranks + 1];
        for (int g = 0; g < remote.length; g++)
        {
            final int owner = blocks.owner(remote[g]);
            ghostOwners[g] = owner;
            ghostRemoteOffsets[g] = (long)(remote[g] - blocks.first(owner)) * Double.BYTES;
            ownerStarts[owner + 1]++;
        }
        for (int r = 0; r < ranks; r++)
        {
            ownerStarts[r + 1] += ownerStarts[r];
        }
        columnSlots = new int[rows.nonzeros()];
        for (int k = 0; k < columnSlots.length; k++)
        {
            final int column = rows.columns[k];
            columnSlots[k] = column >= rows.first && column < rows.last ? column - rows.first :
                rows.rowCount() + Arrays.binarySearch(remote, column);
        }
    }

    int ghosts()
    {
        return ghostColumns.length;
    }
}
