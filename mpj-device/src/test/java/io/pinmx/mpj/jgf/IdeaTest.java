package io.pinmx.mpj.jgf;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IdeaTest
{
    private static final short[] KEY = {1, 2, 3, 4, 5, 6, 7, 8};

    @Test
    void encryptsThePublishedTestVector()
    {
        final byte[] plain = HexFormat.of().parseHex("0000000100020003");
        final byte[] cipher = new byte[8];
        Idea.encryption(KEY).cipher(plain, 0, cipher, 0, 8);
        assertEquals("11fbed2b01986de5", HexFormat.of().formatHex(cipher));
    }

    @Test
    void decryptionUndoesEncryptionForAnyKey()
    {
        final Random random = new Random(7);
        for (int trial = 0; trial < 50; trial++)
        {
            final short[] key = new short[8];
            for (int i = 0; i < 8; i++)
            {
                key[i] = (short)random.nextInt();
            }
            final byte[] plain = new byte[64];
            random.nextBytes(plain);
            final byte[] cipher = new byte[64];
            final byte[] back = new byte[64];
            Idea.encryption(key).cipher(plain, 0, cipher, 0, 64);
            Idea.decryption(key).cipher(cipher, 0, back, 0, 64);
            assertArrayEquals(plain, back);
        }
    }

    @Test
    void multiplicationAndInverseFollowTheModulus()
    {
        for (int x = 0; x <= 0xFFFF; x++)
        {
            assertEquals(1, Idea.multiply(x, Idea.inverse(x)), "x = " + x);
        }
        assertEquals(1, Idea.multiply(0, 0));
    }

    @Test
    void refusesPartialBlocksAndShortKeys()
    {
        final Idea idea = Idea.encryption(KEY);
        final IllegalArgumentException partial = assertThrows(IllegalArgumentException.class,
            () -> idea.cipher(new byte[12], 0, new byte[12], 0, 12));
        assertEquals("IDEA ciphers whole 8-byte blocks, got 12 bytes", partial.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Idea.encryption(new short[4]));
    }
}
