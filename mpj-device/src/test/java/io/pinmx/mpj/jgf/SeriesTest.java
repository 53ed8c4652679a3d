package io.pinmx.mpj.jgf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeriesTest
{
    @Test
    void theSuitesRuleGivesItsReferenceCoefficients()
    {
        final double[] a = new double[4];
        final double[] b = new double[4];
        for (int i = 0; i < 4; i++)
        {
            a[i] = Series.coefficientA(i);
            b[i] = Series.coefficientB(i);
        }
        assertNull(Series.validate(a, b));
    }

    @Test
    void aWrongCoefficientFailsValidationNamingIt()
    {
        final double[] a = {Series.REFERENCE[0][0], Series.REFERENCE[1][0], Series.REFERENCE[2][0] + 1e-9, Series.REFERENCE[3][0]};
        final double[] b = {Series.REFERENCE[0][1], Series.REFERENCE[1][1], Series.REFERENCE[2][1], Series.REFERENCE[3][1]};
        final String failure = Series.validate(a, b);
        assertTrue(null != failure && failure.startsWith("coefficient pair 2 is"), failure);
    }
}
