package io.pinmx.mpj.npb;

/**
 * NPB IS problem classes: 2^totalKeysLog2 keys in [0, 2^maxKeyLog2), 2^bucketsLog2 buckets, and the five test keys
 * of the partial verification (their indices in the generated sequence and their ranks, which NPB shifts by the
 * iteration number in a class-specific way: the keys each iteration plants near 0 and near the maximum move them).
 */
enum IsClass
{
    S(16, 11, 9, new int[]{48427, 17148, 23627, 62548, 4431}, new int[]{0, 18, 346, 64917, 65463}),
    W(20, 16, 10, new int[]{357773, 934767, 875723, 898999, 404505}, new int[]{1249, 11698, 1039987, 1043896, 1048018}),
    A(23, 19, 10, new int[]{2112377, 662041, 5336171, 3642833, 4250760}, new int[]{104, 17523, 123928, 8288932, 8388264}),
    B(25, 21, 10, new int[]{41869, 812306, 5102857, 18232239, 26860214}, new int[]{33422937, 10244, 59149, 33135281, 99});

    /** Test keys per iteration. */
    static final int TEST_KEYS = 5;

    final int totalKeysLog2;
    final int maxKeyLog2;
    final int bucketsLog2;
    private final int[] testIndex;
    private final int[] testRank;

    IsClass(final int totalKeysLog2, final int maxKeyLog2, final int bucketsLog2, final int[] testIndex,
        final int[] testRank)
    {
        this.totalKeysLog2 = totalKeysLog2;
        this.maxKeyLog2 = maxKeyLog2;
        this.bucketsLog2 = bucketsLog2;
        this.testIndex = testIndex;
        this.testRank = testRank;
    }

    static IsClass named(final String name)
    {
        for (final IsClass c : values())
        {
            if (c.name().equalsIgnoreCase(name))
            {
                return c;
            }
        }
        throw new IllegalArgumentException("NPB IS class '" + name + "': expected one of S, W, A, B");
    }

    int totalKeys()
    {
        return 1 << totalKeysLog2;
    }

    int maxKey()
    {
        return 1 << maxKeyLog2;
    }

    int buckets()
    {
        return 1 << bucketsLog2;
    }

    /** Index in the whole key sequence of test key {@code i}. */
    int testIndex(final int i)
    {
        return testIndex[i];
    }

    /** The rank (number of smaller keys) test key {@code i} must have in {@code iteration}. */
    long expectedRank(final int i, final int iteration)
    {
        final long published = testRank[i];
        return switch (this)
        {
            case S -> i <= 2 ? published + iteration : published - iteration;
            case W -> i < 2 ? published + iteration - 2 : published - iteration;
            case A -> i <= 2 ? published + iteration - 1 : published - (iteration - 1);
            case B -> i == 1 || i == 2 || i == 4 ? published + iteration : published - iteration;
        };
    }
}
