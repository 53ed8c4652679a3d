package io.pinmx.mpj.jgf;

import mpi.Datatype;
import mpi.MPI;

import java.util.Arrays;

/**
 * The buffers of one section-1 measurement: {@code count} elements per rank of one element type, sent from
 * {@code send} and received into {@code receive} (large enough for every rank's share where the operation needs it).
 */
record Payload(ElementType type, int count, Object send, Object receive)
{
    /** The element types of the suite's section 1: an array of doubles, or of objects holding one double each. */
    enum ElementType
    {
        DOUBLE("Double", "bytes"),
        OBJECT("Object", "objects");

        private final String label;
        private final String unit;

        ElementType(final String label, final String unit)
        {
            this.label = label;
            this.unit = unit;
        }

        String label()
        {
            return label;
        }

        String unit()
        {
            return unit;
        }

        Datatype datatype()
        {
            return this == DOUBLE ? MPI.DOUBLE : MPI.OBJECT;
        }

        /** What one element counts for in the suite's performance: 8 bytes, or one object. */
        int operationsPerElement()
        {
            return this == DOUBLE ? Double.BYTES : 1;
        }

        Object array(final int elements)
        {
            if (this == DOUBLE)
            {
                return new double[elements];
            }
            final BoxedDouble[] objects = new BoxedDouble[elements];
            Arrays.setAll(objects, i -> new BoxedDouble(i));
            return objects;
        }
    }

    static Payload of(final ElementType type, final int count, final int sendElements, final int receiveElements)
    {
        return new Payload(type, count, type.array(sendElements), type.array(receiveElements));
    }

    Datatype datatype()
    {
        return type.datatype();
    }
}
