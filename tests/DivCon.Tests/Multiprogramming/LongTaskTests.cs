using DivCon.Multiprogramming;
using DivCon.Partitioning;
using System.Runtime.CompilerServices;
using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Multiprogramming;

/// <summary>
/// Issue 20, item 0: a task that never returns (a synchronous loop of Parallel.For, a spin) keeps its worker, because a
/// worker moves only between tasks. A program the policy gave that worker (a move still pending) or that lent it away
/// (a recall still pending) must still be served within a bounded delay: by a compensating worker standing in for the
/// worker that owes it (BlockingMonitor.cs). Before the fix those programs waited for ever.
/// </summary>
public sealed class LongTaskTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    private static Task Run(ProgramHandle p, Action action)
        => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.None, p.Scheduler);

    private static MultiProgramScheduler Create(bool lending)
    {
        int[] processors = ThreadAffinity.GetProcessAffinity().Take(2).ToArray();
        return new MultiProgramScheduler(new MultiProgramSchedulerOptions
        {
            Processors = processors,
            Unpinned = true,
            Policy = new EqualSharesPolicy(),
            RepartitionInterval = TimeSpan.FromMilliseconds(10),
            IdleLending = lending,
            CompensationDelay = TimeSpan.FromMilliseconds(50),
        });
    }

    // Starts `count` tasks on `program` that run until `stop`, and waits until every one of them runs on a worker.
    private static Task[] StartEndlessTasks(ProgramHandle program, int count, StrongBox<bool> stop)
    {
        int running = 0;
        Task[] tasks = Enumerable.Range(0, count).Select(_ => Run(program, () =>
        {
            Interlocked.Increment(ref running);
            var options = new ParallelOptions { TaskScheduler = TaskScheduler.Current };
            while (!Volatile.Read(ref stop.Value))
            {
                // The shape of the reported defect: a synchronous loop of Parallel.For inside one task.
                Parallel.For(0, 4, options, _ => Thread.SpinWait(200));
            }
        })).ToArray();
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref running) == count, Timeout), "The endless tasks did not all start.");
        return tasks;
    }

    // The program's divcon.program.served.count, read once through a MeterListener (null: not published).
    private static long? ServedOnTheMeter(MultiProgramScheduler mps, ProgramHandle program)
    {
        long? served = null;
        using var listener = new System.Diagnostics.Metrics.MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Name == SchedulingTelemetry.ProgramServedCount)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<int>((_, value, tags, _) =>
        {
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                if (tag.Key == SchedulingTelemetry.ProgramId && Equals(tag.Value, program.Id))
                {
                    served = value;
                }
            }
        });
        listener.Start();
        listener.RecordObservableInstruments();
        GC.KeepAlive(mps);
        return served;
    }

    private static void Finish(MultiProgramScheduler mps, StrongBox<bool> stop, Task[] endless)
    {
        Volatile.Write(ref stop.Value, true);
        Assert.True(Task.WaitAll(endless, Timeout), "The endless tasks did not end after stop.");
        Assert.True(Task.Run(mps.Dispose).Wait(Timeout), "Dispose did not return in time.");
    }

    /// <summary>
    /// Both workers run a batch's never-ending tasks; a request program is added and the policy gives it one of them,
    /// a move that waits on the running task for ever. The request's task still runs, on a compensating worker.
    /// </summary>
    [ProcessorTheory(2)]
    [InlineData(false)]
    [InlineData(true)]
    public void A_program_whose_assigned_worker_is_stuck_in_another_programs_task_is_served(bool lending)
    {
        MultiProgramScheduler mps = Create(lending);
        var stop = new StrongBox<bool>();
        ProgramHandle batch = mps.AddProgram("batch");
        Task[] endless = StartEndlessTasks(batch, 2, stop);
        try
        {
            ProgramHandle request = mps.AddProgram("request");
            Assert.True(SpinWait.SpinUntil(() => request.Allocation >= 1, Timeout), "The policy gave the request no core.");

            // Assigned, not served: the snapshot shows the move waiting on the batch's task, with its age.
            MultiProgramSnapshot? seen = null;
            Assert.True(
                SpinWait.SpinUntil(() => (seen = mps.GetSnapshot()).PendingMoves.Any(m => m.ToProgramId == request.Id && m.FromProgramId == batch.Id), Timeout),
                "The snapshot shows no move to the request waiting on the batch's task.");
            Assert.Equal(0, request.ServedWorkers);
            Assert.Equal(0, seen!.ServedByProgram[request.Id]);
            Assert.True(seen.CoresByProgram[request.Id] >= 1);
            // The meter publishes the served count, not the assigned one. Read between two equal readings of the handle:
            // a compensating worker standing in for the stuck one may serve the request for a moment, on a loaded machine.
            Assert.True(
                SpinWait.SpinUntil(() =>
                {
                    int a = request.ServedWorkers;
                    long? metered = ServedOnTheMeter(mps, request);
                    return a == request.ServedWorkers && metered == a;
                }, Timeout),
                "The meter's served count never matched the request's served workers.");
            Thread.Sleep(20);
            Assert.Contains(mps.GetSnapshot().PendingMoves, m => m.ToProgramId == request.Id && m.Age >= TimeSpan.FromMilliseconds(20));

            Task answered = Run(request, () => Thread.SpinWait(1000));
            Assert.True(answered.Wait(Timeout), "The request's task never ran: its assigned worker is stuck in the batch's task.");
            Assert.True(request.Compensations >= 1, "The request was served without a compensating worker (a worker moved?).");
            Assert.Contains(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.MoveCompensation && m.ToProgramId == request.Id);
        }
        finally
        {
            Finish(mps, stop, endless);
        }
    }

    /// <summary>
    /// Idle lending: the request's own worker, idle, lends itself to the batch and enters a task that never returns;
    /// then the request queues a task. The recall waits on that task for ever; a compensating worker serves the request.
    /// </summary>
    [ProcessorFact(2)]
    public void A_program_whose_lent_worker_is_stuck_in_the_borrowers_task_is_served()
    {
        MultiProgramScheduler mps = Create(lending: true);
        var stop = new StrongBox<bool>();
        ProgramHandle batch = mps.AddProgram("batch");
        ProgramHandle request = mps.AddProgram("request");
        Assert.True(SpinWait.SpinUntil(() => request.Allocation == 1 && batch.Allocation == 1, Timeout), "Equal shares did not give one core each.");
        Task[] endless = StartEndlessTasks(batch, 2, stop); // the second one runs on the request's lent worker
        try
        {
            Task answered = Run(request, () => Thread.SpinWait(1000));
            Assert.True(answered.Wait(Timeout), "The request's task never ran: its lent worker is stuck in the batch's task.");
            Assert.True(request.Compensations >= 1, "The request was served without a compensating worker (a worker moved?).");
            Assert.Contains(mps.Timeline.GetMoves(), m => m.Reason == AllocationReason.MoveCompensation && m.ToProgramId == request.Id);
        }
        finally
        {
            Finish(mps, stop, endless);
        }
    }
}
