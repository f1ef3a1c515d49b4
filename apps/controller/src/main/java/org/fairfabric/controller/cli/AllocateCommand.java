package org.fairfabric.controller.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import org.fairfabric.core.allocator.Allocation;
import org.fairfabric.core.allocator.AllocationProblem;
import org.fairfabric.core.allocator.ExactAllocator;
import org.fairfabric.core.allocator.InfeasibleProblemException;
import org.fairfabric.core.allocator.InvalidProblemException;
import org.fairfabric.core.allocator.PaperAllocator;

/**
 * {@code ./fairfabric allocate [--mode exact|paper] [--tolerance T] FILE|-} and
 * {@code ./fairfabric allocate --generate k=..,sessions=..,paths=..,seed=..}.
 * Exit 0 on success, 2 on invalid input or usage (nothing on stdout), 3 when the minimum
 * rates are infeasible.
 */
public final class AllocateCommand {
    public static final int OK = 0;
    public static final int INVALID = 2;
    public static final int INFEASIBLE = 3;

    static final String USAGE = "usage: ./fairfabric allocate [--mode exact|paper] [--tolerance T] "
            + "[--max-iterations N] FILE|-\n"
            + "       ./fairfabric allocate --generate k=16,sessions=10000,paths=8,seed=1"
            + "[,capacity=1000,caps=0.2,guarantees=0.2]";

    private AllocateCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        String mode = "exact";
        double tolerance = ExactAllocator.DEFAULT_TOLERANCE;
        int maxIterations = ExactAllocator.DEFAULT_MAX_ITERATIONS;
        String file = null;
        String generate = null;
        try {
            for (int a = 0; a < args.length; a++) {
                String arg = args[a];
                switch (arg) {
                    case "--mode" -> mode = value(args, ++a, arg);
                    case "--tolerance" -> tolerance = parseDouble(value(args, ++a, arg), arg);
                    case "--max-iterations" -> maxIterations = (int) parseDouble(value(args, ++a, arg), arg);
                    case "--generate" -> generate = value(args, ++a, arg);
                    case "-h", "--help" -> {
                        out.println(USAGE);
                        return OK;
                    }
                    default -> {
                        if (arg.startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + arg);
                        }
                        if (file != null) {
                            throw new IllegalArgumentException("only one problem file may be given");
                        }
                        file = arg;
                    }
                }
            }
            if (!mode.equals("exact") && !mode.equals("paper")) {
                throw new IllegalArgumentException("--mode: must be exact or paper, got \"" + mode + "\"");
            }
            if (!(tolerance > 0 && tolerance < 1)) {
                throw new IllegalArgumentException("--tolerance: must be in (0, 1), got " + tolerance);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("--max-iterations: must be positive");
            }
            if (generate != null) {
                if (file != null) {
                    throw new IllegalArgumentException("--generate takes no problem file");
                }
                AllocationProblem problem = GenerateSpec.parse(generate).generate();
                out.println(ProblemJson.MAPPER.writeValueAsString(ProblemJson.toJson(problem)));
                return OK;
            }
            if (file == null) {
                throw new IllegalArgumentException("a problem FILE (or - for stdin) is required");
            }
        } catch (IllegalArgumentException | IOException e) {
            err.println("allocate: " + e.getMessage());
            err.println(USAGE);
            return INVALID;
        }

        String text;
        try {
            text = file.equals("-") ? read(in) : Files.readString(Paths.get(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            err.println("allocate: " + file + ": no such file");
            return INVALID;
        } catch (IOException e) {
            err.println("allocate: " + file + ": " + e.getMessage());
            return INVALID;
        }
        try {
            AllocationProblem problem = ProblemJson.parse(text);
            Allocation allocation;
            if (mode.equals("paper")) {
                if (hasCapsOrGuarantees(problem)) {
                    err.println("allocate: note: paper mode (Algorithm 1 as printed) ignores demand and minRate");
                }
                allocation = new PaperAllocator().solve(problem);
            } else {
                allocation = new ExactAllocator(tolerance, maxIterations).solve(problem);
                if (!allocation.converged()) {
                    err.printf("allocate: warning: stopped after %d iterations at relative gap %.3g "
                            + "(tolerance %.3g)%n", allocation.iterations(), allocation.relativeGap(), tolerance);
                }
            }
            out.println(ProblemJson.MAPPER.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(AllocationJson.toJson(allocation)));
            return OK;
        } catch (InvalidProblemException e) {
            err.println("allocate: " + e.getMessage());
            return INVALID;
        } catch (InfeasibleProblemException e) {
            err.println("allocate: infeasible: " + e.getMessage());
            return INFEASIBLE;
        } catch (IOException e) {
            err.println("allocate: " + e.getMessage());
            return INVALID;
        }
    }

    private static boolean hasCapsOrGuarantees(AllocationProblem problem) {
        for (int i = 0; i < problem.sessionCount(); i++) {
            if (problem.minRate(i) > 0 || problem.demand(i) != AllocationProblem.NO_DEMAND) {
                return true;
            }
        }
        return false;
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + ": missing value");
        }
        return args[index];
    }

    private static double parseDouble(String text, String option) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": not a number: \"" + text + "\"");
        }
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        in.transferTo(buffer);
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
