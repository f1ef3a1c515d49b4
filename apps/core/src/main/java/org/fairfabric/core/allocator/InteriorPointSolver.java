package org.fairfabric.core.allocator;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Infeasible-start primal-dual interior-point method for
 * max Σ w_i log x_i, x_i = Σ_p r_ip, A r + s = C, x_i − u_i = g_i, x_i + v_i = d_i, r, s, u, v ≥ 0.
 *
 * <p>Each Newton step is reduced to the link space: per session the Hessian block is
 * diag(z/r) + h_i·11ᵀ (Sherman–Morrison inverts it in O(paths)), and the link prices' step y
 * solves (diag(s/μ) + A B⁻¹ Aᵀ) y = rhs by Jacobi-preconditioned conjugate gradients, never
 * forming a matrix: each CG iteration is one fused pass over the sessions' path→link CSR arrays.
 * Two configurations (see {@link #fast}): Mehrotra predictor–corrector steps with a CG test
 * scaled to the complementarity error it leaves, and the classic method kept as the fallback.
 *
 * <p>Works in normalised units (capacities divided by the largest, weights by their mean);
 * the relative gap is invariant under that scaling.
 */
final class InteriorPointSolver {
    private static final double STEP_TO_BOUNDARY = 0.99;
    private static final int MAX_CG_ITERATIONS = 1000;

    private final AllocationProblem problem;
    /**
     * The fast method: Mehrotra predictor–corrector steps on cold solves, CG stopped by the
     * complementarity error it leaves, warm solves re-saving their own restart point. Otherwise
     * the classic method (heuristic σ, relative-residual CG), kept as the fallback.
     */
    private final boolean fast;
    private final double tolerance;
    private final int maxIterations;
    private final int n;
    private final int m;
    private final int paths;
    private final int[] sps;
    private final int[] pls;
    private final int[] pl;
    private final double capScale;
    private final double weightScale;
    private final double[] cap;
    private final double[] w;
    private final double[] g;
    private final double[] d;
    private final boolean[] hasLo;
    private final boolean[] hasUp;
    private final double sumW;

    // Primal-dual iterate.
    private final double[] r;
    private final double[] z;
    private final double[] s;
    private final double[] mu;
    private final double[] u;
    private final double[] alpha;
    private final double[] v;
    private final double[] beta;

    // Work arrays.
    private final double[] x;
    private final double[] load;
    private final double[] pathPrice;
    private final double[] lmin;
    private final double[] bestMu;
    private final double[] rRepaired;
    private final double[] xRepaired;
    private final double[] loadRepaired;
    private final double[] dinv;
    private final double[] h;
    private final double[] hFactor;
    private final double[] qPath;
    private final double[] rho;
    private final double[] re;
    private final double[] rl;
    private final double[] ru;
    private final double[] dr;
    private final double[] dz;
    private final double[] ds;
    private final double[] dmu;
    private final double[] dx;
    private final double[] du;
    private final double[] dalpha;
    private final double[] dv;
    private final double[] dbeta;
    private final double[] precond;
    private final double[] corrPath;
    private final double[] corrLink;
    private final double[] corrLo;
    private final double[] corrUp;
    /** s/μ per link: the diagonal part of the link-space Newton matrix. */
    private final double[] linkDiag;
    private final double[] cgY;
    private final double[] cgRes;
    private final double[] cgZ;
    private final double[] cgP;
    private final double[] cgQ;
    private final double[] cgRhs;
    private final double[] tmpPath;
    private final int[] stamp;
    private final double[] acc;
    private final int[] touched;

    private final SolveCheckpoint checkpoint;
    private int totalCgIterations;
    private double lastGap = Double.POSITIVE_INFINITY;
    private double lastInfeasibility = Double.POSITIVE_INFINITY;

    InteriorPointSolver(AllocationProblem problem, double tolerance, int maxIterations, boolean fast) {
        this(problem, tolerance, maxIterations, fast, SolveCheckpoint.NONE);
    }

    InteriorPointSolver(AllocationProblem problem, double tolerance, int maxIterations, boolean fast, SolveCheckpoint checkpoint) {
        this.problem = problem;
        this.checkpoint = checkpoint;
        this.fast = fast;
        this.tolerance = tolerance;
        this.maxIterations = maxIterations;
        n = problem.sessionCount();
        m = problem.linkCount();
        paths = problem.pathCount();
        sps = problem.sessionPathStartArray();
        pls = problem.pathLinkStartArray();
        pl = problem.pathLinksArray();
        double cmax = 0;
        for (int e = 0; e < m; e++) {
            cmax = Math.max(cmax, problem.capacity(e));
        }
        capScale = cmax > 0 ? cmax : 1;
        double wsum = 0;
        for (int i = 0; i < n; i++) {
            wsum += problem.weight(i);
        }
        weightScale = n > 0 ? wsum / n : 1;
        cap = new double[m];
        for (int e = 0; e < m; e++) {
            cap[e] = problem.capacity(e) / capScale;
        }
        w = new double[n];
        g = new double[n];
        d = new double[n];
        hasLo = new boolean[n];
        hasUp = new boolean[n];
        for (int i = 0; i < n; i++) {
            w[i] = problem.weight(i) / weightScale;
            g[i] = problem.minRate(i) / capScale;
            d[i] = problem.demand(i) / capScale;
            hasLo[i] = g[i] > 0;
            hasUp[i] = !Double.isInfinite(d[i]);
        }
        sumW = Duality.sum(w);
        r = new double[paths];
        z = new double[paths];
        s = new double[m];
        mu = new double[m];
        u = new double[n];
        alpha = new double[n];
        v = new double[n];
        beta = new double[n];
        x = new double[n];
        load = new double[m];
        pathPrice = new double[paths];
        lmin = new double[n];
        bestMu = new double[m];
        rRepaired = new double[paths];
        xRepaired = new double[n];
        loadRepaired = new double[m];
        dinv = new double[paths];
        h = new double[n];
        hFactor = new double[n];
        qPath = new double[paths];
        rho = new double[m];
        re = new double[m];
        rl = new double[n];
        ru = new double[n];
        dr = new double[paths];
        dz = new double[paths];
        ds = new double[m];
        dmu = new double[m];
        dx = new double[n];
        du = new double[n];
        dalpha = new double[n];
        dv = new double[n];
        dbeta = new double[n];
        precond = new double[m];
        corrPath = new double[paths];
        corrLink = new double[m];
        corrLo = new double[n];
        corrUp = new double[n];
        linkDiag = new double[m];
        cgY = new double[m];
        cgRes = new double[m];
        cgZ = new double[m];
        cgP = new double[m];
        cgQ = new double[m];
        cgRhs = new double[m];
        tmpPath = new double[paths];
        stamp = new int[m];
        Arrays.fill(stamp, -1);
        acc = new double[m];
        touched = new int[m];
    }

    Allocation solve(WarmStart warm) throws InfeasibleProblemException {
        predictorCorrector = fast && warm == null;
        if (warm == null) {
            coldStart();
        } else {
            warmStart(warm);
        }
        int iteration = 0;
        boolean converged = false;
        double[] best = new double[paths];
        double bestGap = Double.POSITIVE_INFINITY;
        int sinceImprovement = 0;
        while (true) {
            checkpoint.reached();
            computeState();
            measure();
            boolean acceptable = lastInfeasibility <= tolerance;
            if (acceptable && lastGap < bestGap) {
                sinceImprovement = lastGap < 0.5 * bestGap ? 0 : sinceImprovement + 1;
                bestGap = lastGap;
                System.arraycopy(rRepaired, 0, best, 0, paths);
                System.arraycopy(mu, 0, bestMu, 0, m);
            } else {
                sinceImprovement++;
            }
            // Warm solves pass on the centred iterate they inherited: their own iterates started
            // off-centre, and re-saving them would degrade a chain of warm starts.
            if (snapshot == null && (warm == null || fast)
                    && lastGap <= Math.max(WARM_SAVE_FACTOR * tolerance, WARM_SAVE_GAP)
                    && lastInfeasibility <= tolerance) {
                snapshot = snapshot();
            }
            if (bestGap <= tolerance) {
                converged = true;
                break;
            }
            if (iteration >= maxIterations || !isFinite()) {
                break;
            }
            // Rounding floor: the gap stopped improving long after it got small.
            if (bestGap < 1e-6 && sinceImprovement > STAGNATION_ITERATIONS) {
                break;
            }
            if (hasMinRates() && Duality.guaranteeExcess(cap, mu, g, lmin) > 1e-9) {
                throw infeasible();
            }
            iteration++;
            newtonStep();
        }
        if (Double.isInfinite(bestGap) && hasMinRates()) {
            Duality.cheapestPathPrices(sps, pls, pl, mu, lmin);
            if (Duality.guaranteeExcess(cap, mu, g, lmin) > 0) {
                throw infeasible();
            }
        }
        if (Double.isInfinite(bestGap)) {
            System.arraycopy(rRepaired, 0, best, 0, paths);
            System.arraycopy(mu, 0, bestMu, 0, m);
            bestGap = lastGap;
        }
        double[] rates = new double[paths];
        for (int p = 0; p < paths; p++) {
            rates[p] = best[p] * capScale;
        }
        double[] prices = new double[m];
        for (int e = 0; e < m; e++) {
            prices[e] = bestMu[e] * weightScale / capScale;
        }
        if (snapshot == null) {
            snapshot = warm != null ? warm : snapshot();
        }
        return new Allocation(problem, Allocation.Mode.EXACT, converged, iteration, tolerance, bestGap,
                rates, prices).withWarmStart(snapshot);
    }

    private boolean isFinite() {
        for (int e = 0; e < m; e++) {
            if (!Double.isFinite(mu[e]) || !Double.isFinite(s[e])) {
                return false;
            }
        }
        for (int p = 0; p < paths; p++) {
            if (!Double.isFinite(r[p]) || !Double.isFinite(z[p])) {
                return false;
            }
        }
        return true;
    }

    int totalCgIterations() {
        return totalCgIterations;
    }

    private boolean hasMinRates() {
        for (boolean b : hasLo) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    private InfeasibleProblemException infeasible() {
        double worth = 0;
        int tight = 0;
        double maxMu = 0;
        for (int e = 0; e < m; e++) {
            worth += mu[e] * cap[e];
            maxMu = Math.max(maxMu, mu[e]);
        }
        StringBuilder links = new StringBuilder();
        for (int e = 0; e < m && tight < 5; e++) {
            if (mu[e] > 1e-3 * maxMu) {
                links.append(tight == 0 ? "" : ", ").append('"').append(problem.linkId(e)).append('"');
                tight++;
            }
        }
        double need = 0;
        for (int i = 0; i < n; i++) {
            need += g[i] * lmin[i];
        }
        return new InfeasibleProblemException(String.format(
                "the minimum rates cannot all be met: priced by the certificate link prices, the guaranteed "
                        + "traffic on its cheapest paths costs %.6g but the capacity is worth only %.6g; "
                        + "bottleneck links include %s", need, worth, links));
    }

    // ---------------------------------------------------------------- starting points

    private void coldStart() {
        // Every path gets half of its tightest link's capacity divided among the paths using it.
        int[] count = new int[m];
        for (int k = 0; k < pl.length; k++) {
            count[pl[k]]++;
        }
        for (int p = 0; p < paths; p++) {
            double best = Double.POSITIVE_INFINITY;
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                best = Math.min(best, cap[pl[k]] / count[pl[k]]);
            }
            r[p] = 0.5 * best;
        }
        for (int i = 0; i < n; i++) {
            double xi = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                xi += r[p];
            }
            if (hasUp[i] && xi > 0.5 * d[i]) {
                double f = 0.5 * d[i] / xi;
                for (int p = sps[i]; p < sps[i + 1]; p++) {
                    r[p] *= f;
                }
            }
        }
        int constraints = paths + m;
        for (int i = 0; i < n; i++) {
            constraints += (hasLo[i] ? 1 : 0) + (hasUp[i] ? 1 : 0);
        }
        double tau0 = sumW / Math.max(1, constraints);
        Duality.sessionRates(sps, r, x);
        Duality.linkLoads(pls, pl, r, load);
        for (int p = 0; p < paths; p++) {
            z[p] = tau0 / r[p];
        }
        for (int e = 0; e < m; e++) {
            s[e] = cap[e] - load[e];
            mu[e] = tau0 / s[e];
        }
        for (int i = 0; i < n; i++) {
            if (hasLo[i]) {
                u[i] = Math.max(x[i] - g[i], 0.1 * g[i]);
                alpha[i] = tau0 / u[i];
            }
            if (hasUp[i]) {
                v[i] = d[i] - x[i];
                beta[i] = tau0 / v[i];
            }
        }
    }

    /** Starts from a stored iterate; whatever it does not cover starts as in a cold start. */
    private void warmStart(WarmStart warm) {
        coldStart();
        double rateToInternal = 1 / capScale;
        double priceToInternal = capScale / weightScale;
        for (int e = 0; e < m; e++) {
            double[] state = warm.link(problem.linkId(e));
            if (state != null) {
                s[e] = state[0] * rateToInternal;
                mu[e] = state[1] * priceToInternal;
            }
        }
        for (int i = 0; i < n; i++) {
            double[] state = warm.session(problem.sessionId(i));
            int k = sps[i + 1] - sps[i];
            if (state == null || state.length != 4 + 2 * k) {
                continue;
            }
            if (hasLo[i] && state[0] > 0) {
                u[i] = state[0] * rateToInternal;
                alpha[i] = state[1] * priceToInternal;
            }
            if (hasUp[i] && state[2] > 0) {
                v[i] = state[2] * rateToInternal;
                beta[i] = state[3] * priceToInternal;
            }
            for (int j = 0; j < k; j++) {
                r[sps[i] + j] = state[4 + j] * rateToInternal;
                z[sps[i] + j] = state[4 + k + j] * priceToInternal;
            }
        }
        recentreChangedLinks();
    }


    /**
     * Links that lost load since the stored iterate (a session left, a weight dropped) get
     * their slack back and a price consistent with the stored centrality, so that the start
     * is primal feasible there and centred instead of holding a price for capacity now unused.
     */
    private void recentreChangedLinks() {
        Duality.linkLoads(pls, pl, r, load);
        double comp = 0;
        for (int e = 0; e < m; e++) {
            comp += mu[e] * s[e];
        }
        for (int p = 0; p < paths; p++) {
            comp += z[p] * r[p];
        }
        double tau = comp / (m + paths);
        for (int e = 0; e < m; e++) {
            double free = cap[e] - load[e];
            if (free > s[e]) {
                s[e] = free;
                mu[e] = Math.min(mu[e], Math.max(tau / s[e], 1e-300));
            }
        }
    }

    private WarmStart snapshot() {
        Map<String, double[]> linkState = new HashMap<>();
        for (int e = 0; e < m; e++) {
            linkState.put(problem.linkId(e), new double[] {s[e] * capScale, mu[e] * weightScale / capScale});
        }
        Map<String, double[]> sessionState = new HashMap<>();
        for (int i = 0; i < n; i++) {
            int k = sps[i + 1] - sps[i];
            double[] state = new double[4 + 2 * k];
            state[0] = hasLo[i] ? u[i] * capScale : 0;
            state[1] = hasLo[i] ? alpha[i] * weightScale / capScale : 0;
            state[2] = hasUp[i] ? v[i] * capScale : 0;
            state[3] = hasUp[i] ? beta[i] * weightScale / capScale : 0;
            for (int j = 0; j < k; j++) {
                state[4 + j] = r[sps[i] + j] * capScale;
                state[4 + k + j] = z[sps[i] + j] * weightScale / capScale;
            }
            sessionState.put(problem.sessionId(i), state);
        }
        return new WarmStart(linkState, sessionState);
    }

    private WarmStart snapshot;
    /** The stored warm-start iterate is the first whose gap is within this factor of the tolerance. */
    static final double WARM_SAVE_FACTOR = 100;
    /** ...or whose gap is at most this: iterates much closer to the boundary restart badly. */
    static final double WARM_SAVE_GAP = 1e-3;

    // ---------------------------------------------------------------- one iteration

    /** x, loads, path prices and the residuals of the equality constraints. */
    private void computeState() {
        Duality.sessionRates(sps, r, x);
        Duality.linkLoads(pls, pl, r, load);
        for (int p = 0; p < paths; p++) {
            double l = 0;
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                l += mu[pl[k]];
            }
            pathPrice[p] = l;
        }
        for (int e = 0; e < m; e++) {
            re[e] = load[e] + s[e] - cap[e];
        }
        for (int i = 0; i < n; i++) {
            rl[i] = hasLo[i] ? x[i] - u[i] - g[i] : 0;
            ru[i] = hasUp[i] ? x[i] + v[i] - d[i] : 0;
        }
    }

    /**
     * Certified relative gap of the repaired iterate: every path is scaled down by its most
     * overloaded link and every session to its demand, which gives a capacity-feasible
     * allocation; infeasibility then only measures unmet minimum rates.
     */
    private void measure() {
        for (int p = 0; p < paths; p++) {
            double f = 1;
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                int e = pl[k];
                if (load[e] > cap[e]) {
                    f = Math.min(f, cap[e] / load[e]);
                }
            }
            rRepaired[p] = r[p] * f;
        }
        Duality.sessionRates(sps, rRepaired, xRepaired);
        double infeasible = 0;
        for (int i = 0; i < n; i++) {
            if (xRepaired[i] > d[i]) {
                double f = d[i] / xRepaired[i];
                for (int p = sps[i]; p < sps[i + 1]; p++) {
                    rRepaired[p] *= f;
                }
                xRepaired[i] = d[i];
            }
            if (xRepaired[i] < g[i]) {
                infeasible = Math.max(infeasible, (g[i] - xRepaired[i]) / g[i]);
            }
        }
        for (int i = 0; i < n; i++) {
            double best = Double.POSITIVE_INFINITY;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                best = Math.min(best, pathPrice[p]);
            }
            lmin[i] = best;
        }
        double dual = Duality.dualObjective(cap, mu, w, g, d, lmin);
        double primal = Duality.primalObjective(w, xRepaired);
        lastGap = n == 0 ? 0 : (dual - primal) / sumW;
        if (Double.isNaN(lastGap)) {
            lastGap = Double.POSITIVE_INFINITY;
        }
        lastInfeasibility = infeasible;
    }

    /**
     * One Mehrotra predictor–corrector step (when {@link #predictorCorrector}; otherwise one
     * plain Newton step with the heuristic centring σ). Both solves share the session blocks
     * and the preconditioner; the corrector's CG starts from the predictor's solution.
     */
    private void newtonStep() {
        double comp = 0;
        int count = paths + m;
        for (int p = 0; p < paths; p++) {
            comp += z[p] * r[p];
        }
        for (int e = 0; e < m; e++) {
            comp += mu[e] * s[e];
        }
        for (int i = 0; i < n; i++) {
            if (hasLo[i]) {
                comp += alpha[i] * u[i];
                count++;
            }
            if (hasUp[i]) {
                comp += beta[i] * v[i];
                count++;
            }
        }
        // When the certified gap is far above the complementarity, infeasibility dominates:
        // take a centring step that reduces the residuals rather than racing τ to zero.
        boolean centre = lastGap * sumW > GAP_RATIO * comp;
        averageComplementarity = comp / count;
        double effectiveSigma;
        buildSessionBlocks();
        if (predictorCorrector && !centre) {
            // Predictor: the affine-scaling direction (τ = 0); σ from how far it gets.
            direction(0, false);
            stepLengths();
            double compAff = complementarityAfterStep();
            effectiveSigma = Math.max(PC_SIGMA_MIN, Math.min(1, Math.pow(compAff / comp, 3)));
            storeSecondOrderTerms();
            direction(effectiveSigma * comp / count, true);
        } else {
            effectiveSigma = centre ? Math.max(sigma, SIGMA_CENTRE) : sigma;
            direction(effectiveSigma * comp / count, false);
        }
        stepLengths();
        double ap = stepPrimal;
        double ad = stepDual;
        for (int p = 0; p < paths; p++) {
            r[p] += ap * dr[p];
            z[p] += ad * dz[p];
        }
        for (int e = 0; e < m; e++) {
            s[e] += ap * ds[e];
            mu[e] += ad * dmu[e];
        }
        for (int i = 0; i < n; i++) {
            if (hasLo[i]) {
                u[i] += ap * du[i];
                alpha[i] += ad * dalpha[i];
            }
            if (hasUp[i]) {
                v[i] += ap * dv[i];
                beta[i] += ad * dbeta[i];
            }
        }
        double step = Math.min(ap, ad);
        // Short steps mean the Newton system is too ill-conditioned to be trusted: damp the
        // directions in which the objective is flat (splitting a session across equal-price
        // paths) harder until steps recover.
        regularisation = step < 0.05 ? Math.min(1, regularisation * 10)
                : Math.max(lastGap < 1e-7 ? PRIMAL_REG_FINAL : PRIMAL_REG, regularisation / 10);
        sigma = Math.max(SIGMA_MIN, Math.min(0.5, Math.pow(1 - step, 3)));
    }

    /** Session blocks B_i = diag(z/r + reg)⁻¹-form (dinv), h_i, the Sherman–Morrison factors, and the preconditioner. */
    private void buildSessionBlocks() {
        for (int i = 0; i < n; i++) {
            double hi = w[i] / (x[i] * x[i]);
            if (hasLo[i]) {
                hi += alpha[i] / u[i];
            }
            if (hasUp[i]) {
                hi += beta[i] / v[i];
            }
            h[i] = hi;
            double sumD = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                dinv[p] = 1 / (z[p] / r[p] + regularisation);
                sumD += dinv[p];
            }
            hFactor[i] = hi / (1 + hi * sumD);
        }
        if (m > DENSE_LIMIT) {
            buildPreconditioner();
        }
    }

    /**
     * The Newton direction for complementarity target τ; with {@code corrected}, each
     * complementarity target is τ minus the predictor's second-order term (Mehrotra).
     */
    private void direction(double tau, boolean corrected) {
        for (int i = 0; i < n; i++) {
            double ci = 0;
            if (hasLo[i]) {
                double t = tau - (corrected ? corrLo[i] : 0);
                ci += (t - alpha[i] * u[i] - alpha[i] * rl[i]) / u[i];
            }
            if (hasUp[i]) {
                double t = tau - (corrected ? corrUp[i] : 0);
                ci -= (t - beta[i] * v[i] + beta[i] * ru[i]) / v[i];
            }
            double grad = w[i] / x[i] + alpha[i] - beta[i] + ci;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double t = tau - (corrected ? corrPath[p] : 0);
                qPath[p] = grad - pathPrice[p] + t / r[p];
            }
        }
        for (int e = 0; e < m; e++) {
            double t = tau - (corrected ? corrLink[e] : 0);
            rho[e] = (t - mu[e] * s[e] + mu[e] * re[e]) / s[e];
        }
        for (int p = 0; p < paths; p++) {
            double t = 0;
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                t += rho[pl[k]];
            }
            qPath[p] -= t;
        }
        // rhs = A B⁻¹ q'
        applyBinv(qPath, tmpPath);
        Arrays.fill(cgRhs, 0);
        for (int p = 0; p < paths; p++) {
            double t = tmpPath[p];
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                cgRhs[pl[k]] += t;
            }
        }
        if (m <= DENSE_LIMIT) {
            denseSolve();
        } else {
            conjugateGradients(Math.max(CG_TOL_MIN, Math.min(CG_TOL_MAX, CG_TOL_PER_GAP * lastGap)));
        }

        // Back-substitution.
        for (int p = 0; p < paths; p++) {
            double t = 0;
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                t += cgY[pl[k]];
            }
            tmpPath[p] = qPath[p] - t;
        }
        applyBinv(tmpPath, dr);
        Duality.sessionRates(sps, dr, dx);
        Arrays.fill(ds, 0);
        for (int p = 0; p < paths; p++) {
            double t = dr[p];
            for (int k = pls[p]; k < pls[p + 1]; k++) {
                ds[pl[k]] += t;
            }
        }
        for (int e = 0; e < m; e++) {
            ds[e] = -re[e] - ds[e];
            dmu[e] = cgY[e] + rho[e];
        }
        for (int p = 0; p < paths; p++) {
            double t = tau - (corrected ? corrPath[p] : 0);
            dz[p] = t / r[p] - z[p] - z[p] / r[p] * dr[p];
        }
        for (int i = 0; i < n; i++) {
            if (hasLo[i]) {
                double t = tau - (corrected ? corrLo[i] : 0);
                du[i] = dx[i] + rl[i];
                dalpha[i] = (t - alpha[i] * u[i] - alpha[i] * du[i]) / u[i];
            }
            if (hasUp[i]) {
                double t = tau - (corrected ? corrUp[i] : 0);
                dv[i] = -ru[i] - dx[i];
                dbeta[i] = (t - beta[i] * v[i] - beta[i] * dv[i]) / v[i];
            }
        }
    }

    /** Primal and dual step lengths (fraction to the boundary) for the current direction. */
    private void stepLengths() {
        double ap = 1;
        double ad = 1;
        ap = maxStep(r, dr, ap);
        ap = maxStep(s, ds, ap);
        ad = maxStep(z, dz, ad);
        ad = maxStep(mu, dmu, ad);
        for (int i = 0; i < n; i++) {
            if (hasLo[i]) {
                if (du[i] < 0) {
                    ap = Math.min(ap, -u[i] / du[i]);
                }
                if (dalpha[i] < 0) {
                    ad = Math.min(ad, -alpha[i] / dalpha[i]);
                }
            }
            if (hasUp[i]) {
                if (dv[i] < 0) {
                    ap = Math.min(ap, -v[i] / dv[i]);
                }
                if (dbeta[i] < 0) {
                    ad = Math.min(ad, -beta[i] / dbeta[i]);
                }
            }
        }
        stepPrimal = Math.min(1, STEP_TO_BOUNDARY * ap);
        stepDual = Math.min(1, STEP_TO_BOUNDARY * ad);
    }

    /** Total complementarity after the current direction's step (the predictor's outcome). */
    private double complementarityAfterStep() {
        double ap = stepPrimal;
        double ad = stepDual;
        double c = 0;
        for (int p = 0; p < paths; p++) {
            c += (r[p] + ap * dr[p]) * (z[p] + ad * dz[p]);
        }
        for (int e = 0; e < m; e++) {
            c += (s[e] + ap * ds[e]) * (mu[e] + ad * dmu[e]);
        }
        for (int i = 0; i < n; i++) {
            if (hasLo[i]) {
                c += (u[i] + ap * du[i]) * (alpha[i] + ad * dalpha[i]);
            }
            if (hasUp[i]) {
                c += (v[i] + ap * dv[i]) * (beta[i] + ad * dbeta[i]);
            }
        }
        return c;
    }

    /** Mehrotra's second-order terms Δ·Δ of the predictor, per complementarity pair. */
    private void storeSecondOrderTerms() {
        for (int p = 0; p < paths; p++) {
            corrPath[p] = dr[p] * dz[p];
        }
        for (int e = 0; e < m; e++) {
            corrLink[e] = ds[e] * dmu[e];
        }
        for (int i = 0; i < n; i++) {
            corrLo[i] = hasLo[i] ? du[i] * dalpha[i] : 0;
            corrUp[i] = hasUp[i] ? dv[i] * dbeta[i] : 0;
        }
    }

    private double stepPrimal;
    private double stepDual;
    /** Mehrotra steps: the fast method's cold solves (warm restarts take plain steps). */
    private boolean predictorCorrector;
    /** Lower bound on the predictor–corrector σ. */
    private static final double PC_SIGMA_MIN = 1e-3;

    private static final double SIGMA_MIN = 0.05;
    private double sigma = 0.3;
    private double regularisation = PRIMAL_REG;

    private static double maxStep(double[] a, double[] da, double limit) {
        double step = limit;
        for (int k = 0; k < a.length; k++) {
            if (da[k] < 0) {
                double t = -a[k] / da[k];
                if (t < step) {
                    step = t;
                }
            }
        }
        return step;
    }

    /** out = B⁻¹ t, session by session (Sherman–Morrison). */
    private void applyBinv(double[] t, double[] out) {
        for (int i = 0; i < n; i++) {
            double dot = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                dot += dinv[p] * t[p];
            }
            double f = hFactor[i] * dot;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                out[p] = dinv[p] * (t[p] - f);
            }
        }
    }

    /** Exact diagonal of diag(s/μ) + A B⁻¹ Aᵀ, for Jacobi preconditioning. */
    private void buildPreconditioner() {
        for (int e = 0; e < m; e++) {
            linkDiag[e] = s[e] / mu[e];
            precond[e] = linkDiag[e];
        }
        for (int i = 0; i < n; i++) {
            int nt = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double dp = dinv[p];
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    int e = pl[k];
                    if (stamp[e] != i) {
                        stamp[e] = i;
                        acc[e] = 0;
                        touched[nt++] = e;
                    }
                    acc[e] += dp;
                }
            }
            double hf = hFactor[i];
            for (int k = 0; k < nt; k++) {
                int e = touched[k];
                double a = acc[e];
                precond[e] += Math.max(a - hf * a * a, 0);
            }
        }
        for (int e = 0; e < m; e++) {
            stamp[e] = -1;
            precond[e] = 1 / Math.max(precond[e], 1e-300);
        }
    }

    /**
     * q = (diag(s/μ) + A B⁻¹ Aᵀ) y in one pass over the sessions: gather each path's price
     * change, apply the session's Sherman–Morrison inverse, scatter back onto the links.
     */
    private void multiply(double[] y, double[] q) {
        for (int e = 0; e < m; e++) {
            q[e] = linkDiag[e] * y[e];
        }
        for (int i = 0; i < n; i++) {
            int first = sps[i];
            int end = sps[i + 1];
            double dot = 0;
            for (int p = first; p < end; p++) {
                double t = 0;
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    t += y[pl[k]];
                }
                tmpPath[p] = t;
                dot += dinv[p] * t;
            }
            double f = hFactor[i] * dot;
            for (int p = first; p < end; p++) {
                double c = dinv[p] * (tmpPath[p] - f);
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    q[pl[k]] += c;
                }
            }
        }
    }

    /**
     * A residual res in the link-space equation becomes an error μ_e·res_e in link e's
     * complementarity equation; CG stops when those errors are small against the average
     * complementarity (η), or (η ≤ 0) at the plain relative residual.
     */
    private boolean cgConverged(double relTol, double bnorm) {
        if (!fast) {
            return Math.sqrt(dot(cgRes, cgRes)) <= relTol * bnorm;
        }
        double t = 0;
        for (int e = 0; e < m; e++) {
            double c = mu[e] * cgRes[e];
            t += c * c;
        }
        return Math.sqrt(t / m) <= CG_ETA * averageComplementarity;
    }

    /** Fast method: CG stops when the RMS complementarity error is this fraction of the average. */
    private static final double CG_ETA = 0.1;
    private double averageComplementarity;

    private void conjugateGradients(double relTol) {
        double bnorm = Math.sqrt(dot(cgRhs, cgRhs));
        if (bnorm == 0) {
            Arrays.fill(cgY, 0);
            return;
        }
        // Start from the previous Newton step's solution when it is the better guess.
        multiply(cgY, cgQ);
        double residualFromPrevious = 0;
        for (int e = 0; e < m; e++) {
            double d = cgRhs[e] - cgQ[e];
            residualFromPrevious += d * d;
        }
        if (Math.sqrt(residualFromPrevious) < bnorm) {
            for (int e = 0; e < m; e++) {
                cgRes[e] = cgRhs[e] - cgQ[e];
            }
        } else {
            Arrays.fill(cgY, 0);
            System.arraycopy(cgRhs, 0, cgRes, 0, m);
        }
        if (cgConverged(relTol, bnorm)) {
            return;
        }
        for (int e = 0; e < m; e++) {
            cgZ[e] = precond[e] * cgRes[e];
        }
        System.arraycopy(cgZ, 0, cgP, 0, m);
        double rz = dot(cgRes, cgZ);
        for (int k = 0; k < MAX_CG_ITERATIONS; k++) {
            checkpoint.reached();
            multiply(cgP, cgQ);
            double a = rz / dot(cgP, cgQ);
            for (int e = 0; e < m; e++) {
                cgY[e] += a * cgP[e];
                cgRes[e] -= a * cgQ[e];
            }
            totalCgIterations++;
            if (cgConverged(relTol, bnorm)) {
                return;
            }
            for (int e = 0; e < m; e++) {
                cgZ[e] = precond[e] * cgRes[e];
            }
            double rzNew = dot(cgRes, cgZ);
            double b = rzNew / rz;
            rz = rzNew;
            for (int e = 0; e < m; e++) {
                cgP[e] = cgZ[e] + b * cgP[e];
            }
        }
    }

    /** CG stops at a relative residual of this fraction of the certified gap (inexact Newton)... */
    private static final double CG_TOL_PER_GAP = 1e-2;
    /** ...clamped to this range. */
    private static final double CG_TOL_MIN = 1e-11;
    private static final double CG_TOL_MAX = 1e-3;
    /** Primal proximal regularisation of the per-path Hessian (normalised units). */
    private static final double PRIMAL_REG = 1e-2;
    /** ...relaxed to this once the gap is small, so that flat directions still converge. */
    private static final double PRIMAL_REG_FINAL = 1e-6;
    /** Certified gap over complementarity above which a step is spent on centring. */
    private static final double GAP_RATIO = 10;
    private static final double SIGMA_CENTRE = 0.9;
    /** Iterations without halving the gap (once below 1e-6) after which rounding has won. */
    private static final int STAGNATION_ITERATIONS = 12;
    /** Up to this many links the Newton system is formed and factorised densely. */
    private static final int DENSE_LIMIT = 200;
    private double[] dense;

    /** Forms diag(s/μ) + A B⁻¹ Aᵀ explicitly and solves it by Cholesky (small link counts). */
    private void denseSolve() {
        if (dense == null) {
            dense = new double[m * m];
        }
        Arrays.fill(dense, 0);
        for (int e = 0; e < m; e++) {
            dense[e * m + e] = s[e] / mu[e];
        }
        for (int i = 0; i < n; i++) {
            int nt = 0;
            for (int p = sps[i]; p < sps[i + 1]; p++) {
                double dp = dinv[p];
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    int e = pl[k];
                    if (stamp[e] != i) {
                        stamp[e] = i;
                        acc[e] = 0;
                        touched[nt++] = e;
                    }
                    acc[e] += dp;
                    for (int k2 = pls[p]; k2 < pls[p + 1]; k2++) {
                        dense[e * m + pl[k2]] += dp;
                    }
                }
            }
            double hf = hFactor[i];
            for (int a = 0; a < nt; a++) {
                int e = touched[a];
                double fe = hf * acc[e];
                for (int b = 0; b < nt; b++) {
                    int f = touched[b];
                    dense[e * m + f] -= fe * acc[f];
                }
            }
        }
        for (int e = 0; e < m; e++) {
            stamp[e] = -1;
        }
        // In-place Cholesky (lower triangle), then two triangular solves.
        for (int j = 0; j < m; j++) {
            int rj = j * m;
            double diag = dense[rj + j];
            for (int k = 0; k < j; k++) {
                diag -= dense[rj + k] * dense[rj + k];
            }
            diag = Math.sqrt(Math.max(diag, 1e-300));
            dense[rj + j] = diag;
            for (int i2 = j + 1; i2 < m; i2++) {
                int ri = i2 * m;
                double v2 = dense[ri + j];
                for (int k = 0; k < j; k++) {
                    v2 -= dense[ri + k] * dense[rj + k];
                }
                dense[ri + j] = v2 / diag;
            }
        }
        for (int i2 = 0; i2 < m; i2++) {
            double v2 = cgRhs[i2];
            int ri = i2 * m;
            for (int k = 0; k < i2; k++) {
                v2 -= dense[ri + k] * cgY[k];
            }
            cgY[i2] = v2 / dense[ri + i2];
        }
        for (int i2 = m - 1; i2 >= 0; i2--) {
            double v2 = cgY[i2];
            for (int k = i2 + 1; k < m; k++) {
                v2 -= dense[k * m + i2] * cgY[k];
            }
            cgY[i2] = v2 / dense[i2 * m + i2];
        }
    }

    private static double dot(double[] a, double[] b) {
        double t = 0;
        for (int k = 0; k < a.length; k++) {
            t += a[k] * b[k];
        }
        return t;
    }
}
