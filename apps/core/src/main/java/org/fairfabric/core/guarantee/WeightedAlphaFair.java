package org.fairfabric.core.guarantee;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.fairfabric.core.model.Checks;

/**
 * vFab App. A: the dual recursion for weighted alpha-fair allocation. Each resource i keeps R_i,
 * the rate a unit-weight source would get if it crossed only i; flow j gets
 * x_j = w_j (sum_i A_ij R_i^-alpha)^(-1/alpha) (Eq. 6/12), which for alpha = infinity is
 * w_j min_i R_i, weighted max-min, the criterion vFab uses. Each step sets y = A x (Eq. 7) and
 * R_i <- R_i C_i / y_i (Eq. 8). A resource no flow crosses (y_i = 0) keeps its R_i.
 */
public final class WeightedAlphaFair {
    private final boolean[][] incidence;
    private final double[] capacity;
    private final double[] weight;
    private final double alpha;

    /**
     * @param incidence incidence[i][j] is true when flow j uses resource i
     * @param alpha     the fairness parameter; {@code Double.POSITIVE_INFINITY} for weighted max-min
     */
    public WeightedAlphaFair(boolean[][] incidence, double[] capacity, double[] weight, double alpha) {
        if (incidence == null || capacity == null || weight == null || incidence.length != capacity.length) {
            throw new IllegalArgumentException("incidence needs one row per resource capacity");
        }
        for (boolean[] row : incidence) {
            if (row == null || row.length != weight.length) {
                throw new IllegalArgumentException("incidence needs one column per flow weight");
            }
        }
        for (int j = 0; j < weight.length; j++) {
            Checks.positive(weight[j], "flow weight");
            boolean uses = false;
            for (boolean[] row : incidence) {
                uses |= row[j];
            }
            if (!uses) {
                throw new IllegalArgumentException("flow " + j + " uses no resource");
            }
        }
        for (double c : capacity) {
            Checks.positive(c, "resource capacity");
        }
        if (!(alpha > 0)) {
            throw new IllegalArgumentException("alpha must be positive, got " + alpha);
        }
        this.incidence = incidence;
        this.capacity = capacity.clone();
        this.weight = weight.clone();
        this.alpha = alpha;
    }

    /** Eq. 6 / 12: the flow rates for given resource rates R. */
    public double[] rates(double[] resourceRates) {
        double[] x = new double[weight.length];
        for (int j = 0; j < weight.length; j++) {
            if (Double.isInfinite(alpha)) {
                double min = Double.POSITIVE_INFINITY;
                for (int i = 0; i < capacity.length; i++) {
                    if (incidence[i][j]) {
                        min = Math.min(min, resourceRates[i]);
                    }
                }
                x[j] = weight[j] * min;
            } else {
                double sum = 0;
                for (int i = 0; i < capacity.length; i++) {
                    if (incidence[i][j]) {
                        sum += Math.pow(resourceRates[i], -alpha);
                    }
                }
                x[j] = weight[j] * Math.pow(sum, -1 / alpha);
            }
        }
        return x;
    }

    /** Eq. 7 then Eq. 8: one update of R. */
    public double[] step(double[] resourceRates) {
        double[] x = rates(resourceRates);
        double[] next = resourceRates.clone();
        for (int i = 0; i < capacity.length; i++) {
            double y = 0;
            for (int j = 0; j < weight.length; j++) {
                if (incidence[i][j]) {
                    y += x[j];
                }
            }
            if (y > 0) {
                next[i] = resourceRates[i] * capacity[i] / y;
            }
        }
        return next;
    }

    /** The flow rates after each of {@code iterations} steps from R0 (element 0 is the rates at R0). */
    public List<double[]> trajectory(double[] initialResourceRates, int iterations) {
        if (initialResourceRates == null || initialResourceRates.length != capacity.length) {
            throw new IllegalArgumentException("need one initial R per resource");
        }
        for (double r : initialResourceRates) {
            Checks.positive(r, "initial R");
        }
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must not be negative");
        }
        List<double[]> out = new ArrayList<>();
        double[] r = initialResourceRates.clone();
        out.add(rates(r));
        for (int n = 0; n < iterations; n++) {
            r = step(r);
            out.add(rates(r));
        }
        return Collections.unmodifiableList(out);
    }
}
