package io.pinmx.mpj.jgf;

import io.pinmx.job.ProgramArguments;
import io.pinmx.mpj.MpjArguments;
import mpi.Intracomm;
import mpi.MPI;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Section 2 of the Java Grande Forum MPJ benchmarks: Crypt, LUFact, SOR, Series and SparseMatmult, each run once at
 * the chosen size on every rank and validated on rank 0. One line per kernel on rank 0:
 * {@code Section2:NAME:Kernel size A time(s) T OPS/s R validation passed}. Exits 1 when a validation failed.
 * <p>
 * An MPJ program: {@code bin/pinmx-run -np 2 --mpj io.pinmx.mpj.jgf.JgfSection2 [--size A|B] [KERNEL ...]}.
 */
public final class JgfSection2
{
    private static final Map<String, Section2Kernel> KERNELS = Arrays.stream(new Section2Kernel[]{
            new Crypt(), new LuFact(), new Sor(), new Series(), new SparseMatmult()})
        .collect(Collectors.toMap(k -> k.name().toLowerCase(Locale.ROOT), Function.identity(), (a, b) -> a,
            LinkedHashMap::new));
    private static final String USAGE = """
        usage: bin/pinmx-run -np N --mpj io.pinmx.mpj.jgf.JgfSection2 [--size A|B] [KERNEL ...]
          Java Grande Forum MPJ benchmarks, section 2: each kernel runs once at the size and is validated.
          KERNEL   Crypt, LUFact, SOR, Series, SparseMatmult (default: all, in that order)
          --size   the suite's problem size, A (default) or B
          exit status: 0 every kernel validated, 1 a validation or a rank failed, 2 a bad argument
        """;

    private JgfSection2()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (ProgramArguments.answered(MpjArguments.own(args), USAGE))
        {
            return;
        }
        final String device = args.length > 2 ? args[2] : "?";
        final String[] own = MPI.Init(args);
        final Intracomm comm = MPI.COMM_WORLD;
        final JgfSize size;
        final List<Section2Kernel> chosen = new ArrayList<>();
        try
        {
            size = parse(own, chosen);
        }
        catch (final IllegalArgumentException ex)
        {
            ProgramArguments.refuse("JgfSection2", ex.getMessage());
            return;
        }
        if (0 == comm.Rank())
        {
            System.out.printf("Java Grande Forum MPJ benchmarks (pinmx's implementation) - section 2 - size %s%n", size);
            System.out.printf("Executing on %d processes, MPJ device %s%n%n", comm.Size(), device);
        }
        boolean allPassed = true;
        for (final Section2Kernel kernel : chosen)
        {
            final Section2Result result = kernel.run(comm, size);
            if (0 == comm.Rank())
            {
                print(kernel.name(), size, result);
                allPassed &= result.passed();
            }
        }
        MPI.Finalize();
        if (!allPassed)
        {
            System.exit(1);
        }
    }

    /** Adds the kernels {@code own} names (all when it names none) to {@code chosen}; returns the size. */
    private static JgfSize parse(final String[] own, final List<Section2Kernel> chosen)
    {
        JgfSize size = JgfSize.A;
        for (int i = 0; i < own.length; i++)
        {
            if ("--size".equals(own[i]))
            {
                if (i + 1 == own.length)
                {
                    throw new IllegalArgumentException("--size needs A or B");
                }
                size = JgfSize.named(own[++i]);
            }
            else
            {
                chosen.add(kernel(own[i]));
            }
        }
        if (chosen.isEmpty())
        {
            chosen.addAll(KERNELS.values());
        }
        return size;
    }

    private static Section2Kernel kernel(final String name)
    {
        final Section2Kernel kernel = KERNELS.get(name.toLowerCase(Locale.ROOT));
        if (null == kernel)
        {
            throw new IllegalArgumentException("no kernel '" + name + "'; the kernels are " +
                KERNELS.values().stream().map(Section2Kernel::name).collect(Collectors.joining(", ")));
        }
        return kernel;
    }

    private static void print(final String name, final JgfSize size, final Section2Result result)
    {
        System.out.printf(Locale.ROOT, "%-30s size %s  time(s) %9.4f  %s/s %12.4g  validation %s%n",
            "Section2:" + name + ":Kernel", size, result.seconds(), result.unit(), result.operations() / result.seconds(),
            result.passed() ? "passed" : "FAILED: " + result.failure());
        System.out.flush();
    }
}
