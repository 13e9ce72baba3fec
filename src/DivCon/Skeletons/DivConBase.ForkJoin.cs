using System.Diagnostics;

namespace DivCon.Skeletons;

// Blocking fork-join recursion (§4.2.1, Figure 4.5), kept only to compare against the asynchronous mode.
//
// A node task splits, queues one task per subproblem and then blocks in Task.WaitAll until they finish, holding
// its worker. Task.WaitAll tries to run a not-yet-started child inline on the waiting thread, but only if the
// scheduler's TryExecuteTaskInline agrees; a scheduler with a fixed number of workers that refuses inlining starves
// once all its workers wait (§4.2.1). The wait observes the run's token, so a canceled run releases its blocked
// workers; children not yet started then end canceled without running. Unlike the asynchronous mode, a faulted or
// canceled fork-join run may complete while children already running are still finishing their muscle.
public abstract partial class DivConBase<TParam, TResult>
{
    private static readonly Func<object?, TResult> s_forkJoinNode = static state => ((ForkJoinNode)state!).Process();
    private static readonly Action<object?> s_forkJoinRoot = static state => ((ForkJoinNode)state!).ProcessRoot();

    private Task<TResult> StartForkJoin(TParam problem, TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        var run = new ForkJoinRun(this, scheduler, cancellationToken, Profiler);
        var root = new ForkJoinNode(run, 1, problem);
        try
        {
            Task.Factory.StartNew(s_forkJoinRoot, root, CancellationToken.None, TaskCreationOptions.DenyChildAttach, scheduler);
        }
        catch (Exception e)
        {
            run.TrySetException(e);
        }

        return run.Task;
    }

    private sealed class ForkJoinRun : TaskCompletionSource<TResult>
    {
        public readonly DivConBase<TParam, TResult> Owner;
        public readonly TaskScheduler Scheduler;
        public readonly CancellationToken Token;
        public readonly PhaseProfiler? Profiler;

        public ForkJoinRun(DivConBase<TParam, TResult> owner, TaskScheduler scheduler, CancellationToken token, PhaseProfiler? profiler)
            : base(TaskCreationOptions.RunContinuationsAsynchronously)
        {
            Owner = owner;
            Scheduler = scheduler;
            Token = token;
            Profiler = profiler;
        }
    }

    private sealed class ForkJoinNode
    {
        private readonly ForkJoinRun _run;
        private readonly int _level;
        private TParam _problem;

        public ForkJoinNode(ForkJoinRun run, int level, TParam problem)
        {
            _run = run;
            _level = level;
            _problem = problem;
        }

        /// <summary>Body of the root task: turns the recursion's exceptions into the run's outcome.</summary>
        public void ProcessRoot()
        {
            ForkJoinRun run = _run;
            try
            {
                run.TrySetResult(Process());
            }
            catch (Exception e)
            {
                List<Exception> faults = [];
                CollectFaults(e, faults);
                if (faults.Count > 0)
                {
                    run.TrySetException(faults);
                }
                else
                {
                    run.TrySetCanceled(run.Token);
                }
            }
        }

        /// <summary>Body of a node task (and the root's recursion): blocks on its children.</summary>
        public TResult Process()
        {
            ForkJoinRun run = _run;
            run.Token.ThrowIfCancellationRequested();
            DivConBase<TParam, TResult> owner = run.Owner;
            PhaseProfiler? profiler = run.Profiler;
            TParam problem = _problem;
            _problem = default!;
            if (!owner.ShouldSplit(problem, _level))
            {
                long start = profiler is null ? 0 : Stopwatch.GetTimestamp();
                TResult result = owner.ExecuteMuscle(problem, _level);
                profiler?.Record(DivConPhase.Execute, _level, Stopwatch.GetTimestamp() - start);
                return result;
            }

            long splitStart = profiler is null ? 0 : Stopwatch.GetTimestamp();
            TParam[] subProblems = CheckSplit(owner.Split(problem, _level), _level);
            profiler?.Record(DivConPhase.Split, _level, Stopwatch.GetTimestamp() - splitStart);

            var tasks = new Task<TResult>[subProblems.Length];
            for (int i = 0; i < subProblems.Length; i++)
            {
                tasks[i] = Task.Factory.StartNew(
                    s_forkJoinNode, new ForkJoinNode(run, _level + 1, subProblems[i]), run.Token, TaskCreationOptions.DenyChildAttach, run.Scheduler);
            }

            // The blocking barrier of §4.2.1. Throws AggregateException once all children completed if any faulted or
            // was canceled, or OperationCanceledException as soon as the token is canceled.
            Task.WaitAll(tasks, run.Token);

            var subResults = new TResult[tasks.Length];
            for (int i = 0; i < tasks.Length; i++)
            {
                subResults[i] = tasks[i].Result;
            }

            long mergeStart = profiler is null ? 0 : Stopwatch.GetTimestamp();
            TResult merged = owner.Merge(subResults, _level);
            profiler?.Record(DivConPhase.Merge, _level, Stopwatch.GetTimestamp() - mergeStart);
            return merged;
        }

        // The original exceptions of the muscles, without the AggregateExceptions that the blocking waits wrap them
        // in and without cancellations.
        private static void CollectFaults(Exception exception, List<Exception> faults)
        {
            if (exception is AggregateException aggregate)
            {
                foreach (Exception inner in aggregate.InnerExceptions)
                {
                    CollectFaults(inner, faults);
                }
            }
            else if (exception is not OperationCanceledException)
            {
                faults.Add(exception);
            }
        }
    }
}
