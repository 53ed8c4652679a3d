package io.pinmx.mpj.jgf;

/**
 * The IDEA block cipher (64-bit blocks, 128-bit key, 8 rounds and an output transform over 16-bit words; words are
 * big-endian in the bytes), as Crypt uses it: one instance holds the 52 subkeys of one direction.
 */
final class Idea
{
    static final int BLOCK_BYTES = 8;
    private static final int ROUNDS = 8;
    private static final int SUBKEYS = 6 * ROUNDS + 4;
    private static final int KEY_ROTATION_BITS = 25;
    private static final long MODULUS = 0x10001L;

    private final int[] subkeys;

    private Idea(final int[] subkeys)
    {
        this.subkeys = subkeys;
    }

    /**
     * @param key eight 16-bit words, most significant first.
     */
    static Idea encryption(final short[] key)
    {
        if (key.length != 8)
        {
            throw new IllegalArgumentException("an IDEA key has 8 words, got " + key.length);
        }
        return new Idea(encryptionSubkeys(key));
    }

    /** The cipher that undoes {@code encryption(key)}. */
    static Idea decryption(final short[] key)
    {
        final int[] z = encryptionSubkeys(key);
        final int[] dk = new int[SUBKEYS];
        for (int r = 0; r <= ROUNDS; r++)
        {
            final int from = 6 * (ROUNDS - r);
            final boolean outer = 0 == r || ROUNDS == r;
            dk[6 * r] = inverse(z[from]);
            dk[6 * r + 1] = negate(z[from + (outer ? 1 : 2)]);
            dk[6 * r + 2] = negate(z[from + (outer ? 2 : 1)]);
            dk[6 * r + 3] = inverse(z[from + 3]);
            if (r < ROUNDS)
            {
                dk[6 * r + 4] = z[6 * (ROUNDS - 1 - r) + 4];
                dk[6 * r + 5] = z[6 * (ROUNDS - 1 - r) + 5];
            }
        }
        return new Idea(dk);
    }

    private static int[] encryptionSubkeys(final short[] key)
    {
        long high = 0;
        long low = 0;
        for (int i = 0; i < 4; i++)
        {
            high = high << 16 | (key[i] & 0xFFFF);
            low = low << 16 | (key[i + 4] & 0xFFFF);
        }
        final int[] z = new int[SUBKEYS];
        for (int i = 0; i < SUBKEYS; i++)
        {
            final int word = i % 8;
            if (0 == word && i > 0)
            {
                final long rotatedHigh = high << KEY_ROTATION_BITS | low >>> (64 - KEY_ROTATION_BITS);
                low = low << KEY_ROTATION_BITS | high >>> (64 - KEY_ROTATION_BITS);
                high = rotatedHigh;
            }
            final long half = word < 4 ? high : low;
            z[i] = (int)(half >>> (48 - 16 * (word % 4))) & 0xFFFF;
        }
        return z;
    }

    /**
     * Ciphers {@code length} bytes (a multiple of 8) of {@code in} from {@code inOffset} into {@code out} at
     * {@code outOffset}.
     */
    void cipher(final byte[] in, final int inOffset, final byte[] out, final int outOffset, final int length)
    {
        if (length % BLOCK_BYTES != 0)
        {
            throw new IllegalArgumentException("IDEA ciphers whole 8-byte blocks, got " + length + " bytes");
        }
        for (int block = 0; block < length; block += BLOCK_BYTES)
        {
            cipherBlock(in, inOffset + block, out, outOffset + block);
        }
    }

    private void cipherBlock(final byte[] in, final int from, final byte[] out, final int to)
    {
        int x1 = word(in, from);
        int x2 = word(in, from + 2);
        int x3 = word(in, from + 4);
        int x4 = word(in, from + 6);
        int k = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            x1 = multiply(x1, subkeys[k++]);
            x2 = x2 + subkeys[k++] & 0xFFFF;
            x3 = x3 + subkeys[k++] & 0xFFFF;
            x4 = multiply(x4, subkeys[k++]);
            final int t = multiply(x1 ^ x3, subkeys[k++]);
            final int u = multiply(t + (x2 ^ x4) & 0xFFFF, subkeys[k++]);
            final int v = t + u & 0xFFFF;
            x1 ^= u;
            x4 ^= v;
            final int middle = x2 ^ v;
            x2 = x3 ^ u;
            x3 = middle;
        }
        putWord(out, to, multiply(x1, subkeys[k++]));
        putWord(out, to + 2, x3 + subkeys[k++] & 0xFFFF);
        putWord(out, to + 4, x2 + subkeys[k++] & 0xFFFF);
        putWord(out, to + 6, multiply(x4, subkeys[k]));
    }

    /** Multiplication modulo 2^16 + 1, where the word 0 stands for 2^16. */
    static int multiply(final int a, final int b)
    {
        final long product = (0 == a ? 0x10000L : a) * (0 == b ? 0x10000L : b) % MODULUS;
        return (int)product & 0xFFFF;
    }

    /** The multiplicative inverse modulo 2^16 + 1 (a prime), by Fermat: x^(p-2). */
    static int inverse(final int x)
    {
        long result = 1;
        long base = 0 == x ? 0x10000L : x;
        for (long e = MODULUS - 2; e > 0; e >>= 1)
        {
            if (1 == (e & 1))
            {
                result = result * base % MODULUS;
            }
            base = base * base % MODULUS;
        }
        return (int)result & 0xFFFF;
    }

    private static int negate(final int x)
    {
        return -x & 0xFFFF;
    }

    private static int word(final byte[] bytes, final int at)
    {
        return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
    }

    private static void putWord(final byte[] bytes, final int at, final int word)
    {
        bytes[at] = (byte)(word >>> 8);
        bytes[at + 1] = (byte)word;
    }
}
