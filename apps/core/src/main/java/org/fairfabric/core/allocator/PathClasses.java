package org.fairfabric.core.allocator;

import java.util.Arrays;

/**
 * The relaxation of a problem to a set of active links: constraints of the other links are
 * dropped, and the paths of a session that cross the same active links become interchangeable,
 * so they merge into one variable, a path class. The relaxation is itself an
 * {@link AllocationProblem} (links: the active ones, with their ids; sessions: the same ids,
 * weights, caps and guarantees; paths: the classes), so any exact method solves it.
 */
final class PathClasses {
    final AllocationProblem full;
    /** Index of each full-problem link in the relaxation, or -1 when inactive. */
    final int[] reducedLink;
    /** Full-problem index of each relaxation link. */
    final int[] activeLinks;
    /** Classes of session i: [sessionClassStart[i], sessionClassStart[i+1]). */
    final int[] sessionClassStart;
    /** Member paths (full-problem indices) of class c: memberPath[classMemberStart[c] .. classMemberStart[c+1]). */
    final int[] classMemberStart;
    final int[] memberPath;
    /** Active links of class c (relaxation indices): classLinks[classLinkStart[c] .. classLinkStart[c+1]). */
    final int[] classLinkStart;
    final int[] classLinks;
    final boolean singleClass;
    /** The previous relaxation's class that class c was copied from, or -1 when it was computed afresh. */
    final int[] classFrom;

    private AllocationProblem relaxation;

    PathClasses(AllocationProblem full, boolean[] active) {
        this(full, active, null, null);
    }

    /**
     * With {@code previous} (built on the same links and the same active set) and
     * {@code sameAs[i]} the index of a previous session with exactly session i's paths (or -1),
     * such sessions' classes are copied instead of recomputed.
     */
    PathClasses(AllocationProblem full, boolean[] active, PathClasses previous, int[] sameAs) {
        this.full = full;
        int m = full.linkCount();
        int n = full.sessionCount();
        int[] sps = full.sessionPathStartArray();
        int[] pls = full.pathLinkStartArray();
        int[] pl = full.pathLinksArray();
        reducedLink = new int[m];
        int count = 0;
        for (int e = 0; e < m; e++) {
            reducedLink[e] = active[e] ? count++ : -1;
        }
        activeLinks = new int[count];
        for (int e = 0; e < m; e++) {
            if (active[e]) {
                activeLinks[reducedLink[e]] = e;
            }
        }
        int paths = full.pathCount();
        sessionClassStart = new int[n + 1];
        // At most one class per path and its links, or a copied session's previous classes and links.
        int bound = 0;
        int linkBound = 0;
        for (int i = 0; i < n; i++) {
            int j = sameAs == null ? -1 : sameAs[i];
            if (j >= 0) {
                int[] pcs = previous.sessionClassStart;
                bound += pcs[j + 1] - pcs[j];
                linkBound += previous.classLinkStart[pcs[j + 1]] - previous.classLinkStart[pcs[j]];
            } else {
                bound += sps[i + 1] - sps[i];
                linkBound += pls[sps[i + 1]] - pls[sps[i]];
            }
        }
        int[] memberStartTmp = new int[bound + 1];
        int[] members = new int[paths];
        int[] linkStartTmp = new int[bound + 1];
        int[] fromTmp = new int[bound];
        int[] links = new int[linkBound];
        int classes = 0;
        int nLinks = 0;
        int nMembers = 0;
        // Per session: the classes found so far, and for each path its class (members are
        // grouped by class after the session is scanned).
        int[] pathClass = new int[16];
        int[] scratch = new int[64];
        boolean single = true;
        for (int i = 0; i < n; i++) {
            int firstClass = classes;
            int first = sps[i];
            int end = sps[i + 1];
            int j = sameAs == null ? -1 : sameAs[i];
            if (j >= 0) {
                // A run of sessions with the previous problem's paths, consecutive there too: its
                // classes are copied in bulk, every index shifted by a constant.
                int len = LazyLinkSolver.runLength(sameAs, i);
                int c0 = previous.sessionClassStart[j];
                int c1 = previous.sessionClassStart[j + len];
                int l0 = previous.classLinkStart[c0];
                int l1 = previous.classLinkStart[c1];
                int m0 = previous.classMemberStart[c0];
                int m1 = previous.classMemberStart[c1];
                int pathShift = first - previous.full.firstPath(j);
                int classShift = classes - c0;
                int linkShift = nLinks - l0;
                int memberShift = nMembers - m0;
                System.arraycopy(previous.classLinks, l0, links, nLinks, l1 - l0);
                for (int k = m0; k < m1; k++) {
                    members[k + memberShift] = previous.memberPath[k] + pathShift;
                }
                for (int c = c0; c < c1; c++) {
                    memberStartTmp[c + classShift] = previous.classMemberStart[c] + memberShift;
                    linkStartTmp[c + 1 + classShift] = previous.classLinkStart[c + 1] + linkShift;
                    fromTmp[c + classShift] = c;
                }
                for (int t = 1; t <= len; t++) {
                    sessionClassStart[i + t] = previous.sessionClassStart[j + t] + classShift;
                    single &= sessionClassStart[i + t] - sessionClassStart[i + t - 1] == 1;
                }
                classes += c1 - c0;
                nLinks += l1 - l0;
                nMembers += m1 - m0;
                memberStartTmp[classes] = nMembers;
                i += len - 1;
                continue;
            }
            if (end - first > pathClass.length) {
                pathClass = new int[2 * (end - first)];
            }
            for (int p = first; p < end; p++) {
                int len = 0;
                for (int k = pls[p]; k < pls[p + 1]; k++) {
                    int r = reducedLink[pl[k]];
                    if (r >= 0) {
                        if (len == scratch.length) {
                            scratch = Arrays.copyOf(scratch, 2 * len);
                        }
                        scratch[len++] = r;
                    }
                }
                Arrays.sort(scratch, 0, len);
                len = dedupe(scratch, len);
                int found = -1;
                for (int c = firstClass; c < classes && found < 0; c++) {
                    if (sameLinks(links, linkStartTmp[c], linkStartTmp[c + 1], scratch, len)) {
                        found = c;
                    }
                }
                if (found < 0) {
                    found = classes++;
                    fromTmp[found] = -1;
                    System.arraycopy(scratch, 0, links, nLinks, len);
                    nLinks += len;
                    linkStartTmp[classes] = nLinks;
                }
                pathClass[p - first] = found;
            }
            for (int c = firstClass; c < classes; c++) {
                memberStartTmp[c] = nMembers;
                for (int p = first; p < end; p++) {
                    if (pathClass[p - first] == c) {
                        members[nMembers++] = p;
                    }
                }
            }
            memberStartTmp[classes] = nMembers;
            sessionClassStart[i + 1] = classes;
            single &= classes - firstClass == 1;
        }
        classMemberStart = trimmed(memberStartTmp, classes + 1);
        memberPath = members;
        classLinkStart = trimmed(linkStartTmp, classes + 1);
        classLinks = trimmed(links, nLinks);
        classFrom = trimmed(fromTmp, classes);
        singleClass = single;
    }

    int classCount() {
        return classLinkStart.length - 1;
    }

    /** True when some class crosses no active link (its rate would be bounded only by a cap). */
    boolean hasFreeClass() {
        for (int c = 0; c < classCount(); c++) {
            if (classLinkStart[c] == classLinkStart[c + 1]) {
                return true;
            }
        }
        return false;
    }

    /** The relaxation as a problem (built on first use). */
    AllocationProblem relaxation() {
        if (relaxation == null) {
            int count = activeLinks.length;
            String[] ids = new String[count];
            double[] capacity = new double[count];
            for (int r = 0; r < count; r++) {
                ids[r] = full.linkId(activeLinks[r]);
                capacity[r] = full.capacity(activeLinks[r]);
            }
            int n = full.sessionCount();
            String[] sessionIds = new String[n];
            for (int i = 0; i < n; i++) {
                sessionIds[i] = full.sessionId(i);
            }
            relaxation = new AllocationProblem(ids, capacity, sessionIds, full.weightArray(), full.demandArray(),
                    full.minRateArray(), sessionClassStart, classLinkStart, classLinks);
        }
        return relaxation;
    }

    private static int[] trimmed(int[] a, int length) {
        return a.length == length ? a : Arrays.copyOf(a, length);
    }

    private static int dedupe(int[] a, int len) {
        int out = 0;
        for (int k = 0; k < len; k++) {
            if (out == 0 || a[out - 1] != a[k]) {
                a[out++] = a[k];
            }
        }
        return out;
    }

    private static boolean sameLinks(int[] links, int from, int to, int[] b, int len) {
        if (to - from != len) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (links[from + k] != b[k]) {
                return false;
            }
        }
        return true;
    }
}
