package org.fairfabric.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SolveGateTest {
    /** A solver thread at a checkpoint; {@link #through} counts down once reached() returned. */
    static final class Solver {
        final CountDownLatch through = new CountDownLatch(1);
        final Thread thread;

        Solver(SolveGate gate) {
            thread = new Thread(() -> {
                gate.reached();
                through.countDown();
            }, "solver");
            thread.start();
        }

        /** Whether the solver is still waiting once it has been seen waiting (not merely not yet started). */
        boolean waiting() throws InterruptedException {
            for (int i = 0; i < 2000 && through.getCount() > 0; i++) {
                Thread.State s = thread.getState();
                if (s == Thread.State.TIMED_WAITING || s == Thread.State.WAITING) {
                    return through.getCount() > 0;
                }
                Thread.sleep(1);
            }
            return through.getCount() > 0;
        }

        boolean passes() throws InterruptedException {
            return through.await(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void nothingHeldTheSolverGoesOn() throws Exception {
        assertTrue(new Solver(new SolveGate()).passes());
    }

    @Test
    void aHoldKeepsTheSolverWaitingUntilItIsClosed() throws Exception {
        SolveGate gate = new SolveGate();
        SolveGate.Hold h = gate.hold(60_000);
        Solver solver = new Solver(gate);
        assertTrue(solver.waiting());
        h.close();
        assertTrue(solver.passes());
        assertEquals(1, gate.waits()[0]);
    }

    @Test
    void everyOpenHoldCountsAndClosingOneTwiceReleasesNoOther() throws Exception {
        SolveGate gate = new SolveGate();
        SolveGate.Hold round = gate.hold(60_000);
        SolveGate.Hold delivery = gate.hold(60_000);
        Solver solver = new Solver(gate);
        round.close();
        round.close();
        assertTrue(solver.waiting());
        delivery.close();
        assertTrue(solver.passes());
    }

    @Test
    void aHoldNeverClosedStopsCountingAtItsDeadline() throws Exception {
        AtomicLong nanos = new AtomicLong();
        SolveGate gate = new SolveGate(nanos::get);
        gate.hold(250); // e.g. tables a broker never acknowledges
        Solver solver = new Solver(gate);
        assertTrue(solver.waiting());
        nanos.addAndGet(249_000_000L);
        assertTrue(solver.waiting());
        nanos.addAndGet(1_000_000L);
        assertTrue(solver.passes());
    }

    @Test
    void theHoldersOwnThreadNeverWaits() {
        SolveGate gate = new SolveGate();
        try (SolveGate.Hold h = gate.hold(60_000)) {
            gate.reached(); // a solve within the round (Runnable::run) would otherwise wait for itself
        }
        assertEquals(0, gate.waits()[0]);
    }

    @Test
    void thePublisherHoldsTheSolverUntilTheSinkHasDeliveredTheTables() throws Exception {
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        RatesSink sink = new RatesSink() {
            @Override
            public void send(String host, String json) {
                throw new AssertionError("the publisher sends an allocation's tables together");
            }

            @Override
            public CompletionStage<?> sendAll(Map<String, String> jsonByHost) {
                return delivered;
            }
        };
        SolveGate gate = new SolveGate();
        new RatesPublisher(sink, () -> 1, true, gate).publish(RatesTableTest.twoSessions("h1", "h2"));
        Solver solver = new Solver(gate);
        assertTrue(solver.waiting());
        delivered.complete(null);
        assertTrue(solver.passes());
    }

    @Test
    void aRoundHoldsTheSolverAndASolveWithinTheRoundDoesNotWaitForIt() throws Exception {
        SolveGate gate = new SolveGate();
        CountDownLatch inRound = new CountDownLatch(1);
        CountDownLatch endRound = new CountDownLatch(1);
        Thread loop = new Thread(() -> {
            try (SolveGate.Hold round = gate.hold(60_000)) {
                inRound.countDown();
                endRound.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        loop.start();
        assertTrue(inRound.await(30, TimeUnit.SECONDS));
        Solver solver = new Solver(gate);
        assertTrue(solver.waiting());
        endRound.countDown();
        assertTrue(solver.passes());
        loop.join();
        assertFalse(loop.isAlive());
    }
}
