package io.pinmx.mpj.jgf;

import mpi.Intracomm;
import mpi.MPI;

import java.util.Arrays;
import java.util.Random;

/**
 * Crypt: IDEA encryption then decryption of a byte array held by rank 0, scattered in 8-byte blocks to every rank
 * and gathered back; the timed part includes both transfers. Valid when the decrypted bytes equal the original and
 * the encrypted ones do not. Operations: kilobytes ciphered (twice the array).
 */
final class Crypt implements Section2Kernel
{
    private static final long KEY_SEED = 136506717L;

    @Override
    public String name()
    {
        return "Crypt";
    }

    static int bytes(final JgfSize size)
    {
        return switch (size)
        {
            case A -> 3_000_000;
            case B -> 20_000_000;
        };
    }

    @Override
    public Section2Result run(final Intracomm comm, final JgfSize size)
    {
        final int rank = comm.Rank();
        final int bytes = bytes(size);
        final BlockShare share = new BlockShare(bytes, comm.Size(), Idea.BLOCK_BYTES);
        final short[] key = key();
        final Idea encrypt = Idea.encryption(key);
        final Idea decrypt = Idea.decryption(key);
        final byte[] plain = 0 == rank ? plainText(bytes) : new byte[0];
        final byte[] crypt = 0 == rank ? new byte[bytes] : new byte[0];
        final byte[] back = 0 == rank ? new byte[bytes] : new byte[0];
        final int mine = share.length(rank);
        final byte[] myPlain = new byte[mine];
        final byte[] myCrypt = new byte[mine];
        final byte[] myBack = new byte[mine];

        comm.Barrier();
        final long startNs = System.nanoTime();
        comm.Scatterv(plain, 0, share.lengths(), share.starts(), MPI.BYTE, myPlain, 0, mine, MPI.BYTE, 0);
        encrypt.cipher(myPlain, 0, myCrypt, 0, mine);
        decrypt.cipher(myCrypt, 0, myBack, 0, mine);
        comm.Gatherv(myCrypt, 0, mine, MPI.BYTE, crypt, 0, share.lengths(), share.starts(), MPI.BYTE, 0);
        comm.Gatherv(myBack, 0, mine, MPI.BYTE, back, 0, share.lengths(), share.starts(), MPI.BYTE, 0);
        comm.Barrier();
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        return 0 == rank ? new Section2Result(seconds, 2.0 * bytes / 1000, "Kbyte", validate(plain, crypt, back)) : null;
    }

    /** The suite's key: eight words from its seeded generator. */
    static short[] key()
    {
        final Random random = new Random(KEY_SEED);
        final short[] key = new short[8];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (short)random.nextInt();
        }
        return key;
    }

    static byte[] plainText(final int bytes)
    {
        final byte[] plain = new byte[bytes];
        for (int i = 0; i < bytes; i++)
        {
            plain[i] = (byte)i;
        }
        return plain;
    }

    /**
     * @return null when {@code back} equals {@code plain} and {@code crypt} differs from it, else the first mismatch.
     */
    static String validate(final byte[] plain, final byte[] crypt, final byte[] back)
    {
        final int mismatch = Arrays.mismatch(plain, back);
        if (mismatch >= 0)
        {
            return "decrypted byte " + mismatch + " is " + (mismatch < back.length ? back[mismatch] : "missing") +
                ", the original is " + (mismatch < plain.length ? plain[mismatch] : "missing");
        }
        return Arrays.equals(plain, crypt) ? "the encrypted bytes equal the original" : null;
    }
}
