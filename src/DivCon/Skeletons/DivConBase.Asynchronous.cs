using System.Diagnostics;

namespace DivCon.Skeletons;

// Asynchronous recursion (§4.2.2, Figures 4.6–4.8), without Unwrap chains: one Frame per node of the recursion tree.
//
// Roles
//   node task  – runs Frame.Process for one (sub)problem: ShouldSplit, then either Split + spawn one node task per
//                subproblem, or ExecuteMuscle + report the result to the parent frame. It never waits.
//   merge task – runs Frame.MergeAndReport once all children of a split frame have reported.
//   the run    – AsyncRun, a TaskCompletionSource: completed exactly once, by the report of the root frame.
//
// Invariants
//   (R1) Every frame reports to its parent exactly once: after its own muscle call returned (or was skipped), and,
//        if it split, after every child reported. Spawning a frame's children is accounted for even when queuing
//        fails part-way (the unspawned children are subtracted from Pending in one step).
//   (R2) Hence the root reports last, and the run's task completes only when no muscle call of the run is in
//        progress and none will start: nothing of the run is left running on the scheduler (must-show 5). What
//        remains is the return path of the last task body (a few instructions after TrySet*), since the task
//        completion source runs its continuations asynchronously.
//   (R3) Pending of a split frame counts children that have not reported. The child whose Interlocked.Decrement
//        takes it to 0 is the last; only it schedules the merge, so each merge is scheduled exactly once.
//   (R4) Once the run is stopped (first fault, or the token seen canceled), frames skip their muscle calls and
//        report "no result" upwards; a split frame whose children are done skips scheduling its merge and reports
//        on at once (no task), so a stopped run drains with the tasks already queued and spawns nothing new.
//
// Cancellation: node and merge tasks are queued with CancellationToken.None and poll the run's token themselves.
// Rejected: passing the token to StartNew. TPL then cancels a queued task without running its body, so that frame
// would never report (R1 broken) and the run would never complete.
//
// Allocation per node: the Frame (problem, parent, slot, level, result slots, counter) and its Task; a split node
// adds its results array and one merge Task. The task bodies are static delegates, so no closures.
public abstract partial class DivConBase<TParam, TResult>
{
    private static readonly Action<object?> s_process = static state => ((Frame)state!).Process();
    private static readonly Action<object?> s_merge = static state => ((Frame)state!).MergeAndReport();

    private Task<TResult> StartAsynchronous(TParam problem, TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        var run = new AsyncRun(this, scheduler, cancellationToken, Profiler);
        var root = new Frame(run, parent: null, index: 0, level: 1, problem);
        try
        {
            Task.Factory.StartNew(s_process, root, CancellationToken.None, TaskCreationOptions.DenyChildAttach, scheduler);
        }
        catch (Exception e)
        {
            // The scheduler refused the root task (e.g. disposed): nothing runs, so fault the run now.
            run.Fail(e);
            root.ReportNoResult();
        }

        return run.Task;
    }

    /// <summary>The state of one asynchronous run, shared by all its frames; its task is the caller's result.</summary>
    private sealed class AsyncRun : TaskCompletionSource<TResult>
    {
        public readonly DivConBase<TParam, TResult> Owner;
        public readonly TaskScheduler Scheduler;
        public readonly CancellationToken Token;
        public readonly PhaseProfiler? Profiler;

        // 0 while running; 1 once stopped. Written (Volatile) by Fail / MarkCanceled on any worker; read by every frame
        // before each muscle call. A frame that reads 0 just before another thread stops the run calls one more muscle:
        // harmless, its result is dropped and (R1) still holds.
        private int _stopped;
        private bool _canceled;                   // under _lock
        private List<Exception>? _exceptions;     // under _lock; in the order the faults were recorded
        private readonly Lock _lock = new();

        public AsyncRun(DivConBase<TParam, TResult> owner, TaskScheduler scheduler, CancellationToken token, PhaseProfiler? profiler)
            : base(TaskCreationOptions.RunContinuationsAsynchronously)
        {
            Owner = owner;
            Scheduler = scheduler;
            Token = token;
            Profiler = profiler;
        }

        /// <summary>True when no further muscle call should start (a fault was recorded or the token is canceled).</summary>
        public bool IsStopped => Volatile.Read(ref _stopped) != 0 || (Token.IsCancellationRequested && MarkCanceled());

        public void Fail(Exception exception)
        {
            if (exception is OperationCanceledException oce && Token.IsCancellationRequested && oce.CancellationToken == Token)
            {
                // A muscle that observed our token: that is the cancellation, not a fault.
                MarkCanceled();
                return;
            }

            lock (_lock)
            {
                (_exceptions ??= []).Add(exception);
            }

            Volatile.Write(ref _stopped, 1);
        }

        /// <summary>Called once, by the root frame's report (R2).</summary>
        public void CompleteStopped()
        {
            lock (_lock)
            {
                if (_exceptions is not null)
                {
                    TrySetException(_exceptions);
                }
                else
                {
                    Debug.Assert(_canceled, "A run stops only by a fault or by its token.");
                    TrySetCanceled(Token);
                }
            }
        }

        private bool MarkCanceled()
        {
            lock (_lock)
            {
                _canceled = true;
            }

            Volatile.Write(ref _stopped, 1);
            return true;
        }
    }

    /// <summary>One node of the recursion tree (see the protocol at the top of this file).</summary>
    private sealed class Frame
    {
        private readonly AsyncRun _run;
        private readonly Frame? _parent;
        private readonly int _index;   // this frame's slot in _parent._results
        private readonly int _level;
        private TParam _problem;       // owner task only; cleared once used so that big subproblems can be collected

        // Written by the owner task before its children are queued (queuing publishes them to the children); each
        // child writes only its own slot, before its Interlocked.Decrement of _pending. Read by the merge task.
        private TResult[]? _results;

        // Children that have not reported yet (R3). Set before the first child is queued; then only Interlocked.
        private int _pending;

        public Frame(AsyncRun run, Frame? parent, int index, int level, TParam problem)
        {
            _run = run;
            _parent = parent;
            _index = index;
            _level = level;
            _problem = problem;
        }

        /// <summary>Body of a node task.</summary>
        public void Process()
        {
            AsyncRun run = _run;
            if (run.IsStopped)
            {
                ReportNoResult();
                return;
            }

            DivConBase<TParam, TResult> owner = run.Owner;
            PhaseProfiler? profiler = run.Profiler;
            TResult result;
            TParam[] subProblems;
            try
            {
                if (!owner.ShouldSplit(_problem, _level))
                {
                    long start = profiler is null ? 0 : Stopwatch.GetTimestamp();
                    result = owner.ExecuteMuscle(_problem, _level);
                    profiler?.Record(DivConPhase.Execute, _level, Stopwatch.GetTimestamp() - start);
                    _problem = default!;
                    Report(result);
                    return;
                }

                long splitStart = profiler is null ? 0 : Stopwatch.GetTimestamp();
                subProblems = CheckSplit(owner.Split(_problem, _level), _level);
                profiler?.Record(DivConPhase.Split, _level, Stopwatch.GetTimestamp() - splitStart);
                _problem = default!;
            }
            catch (Exception e)
            {
                run.Fail(e);
                ReportNoResult();
                return;
            }

            SpawnChildren(subProblems);
        }

        private void SpawnChildren(TParam[] subProblems)
        {
            AsyncRun run = _run;
            int count = subProblems.Length;
            _results = new TResult[count];
            _pending = count; // plain write: happens-before each child, because queuing a task publishes it (R3)
            int childLevel = _level + 1;
            for (int i = 0; i < count; i++)
            {
                var child = new Frame(run, this, i, childLevel, subProblems[i]);
                try
                {
                    Task.Factory.StartNew(s_process, child, CancellationToken.None, TaskCreationOptions.DenyChildAttach, run.Scheduler);
                }
                catch (Exception e)
                {
                    // Children i..count−1 were never queued and will never report: account for them in one step (R1).
                    run.Fail(e);
                    if (Interlocked.Add(ref _pending, -(count - i)) == 0)
                    {
                        OnChildrenDone();
                    }

                    return;
                }
            }
        }

        /// <summary>Body of a merge task, queued by the last child to report (R3).</summary>
        public void MergeAndReport()
        {
            AsyncRun run = _run;
            if (run.IsStopped)
            {
                ReportNoResult();
                return;
            }

            TResult result;
            try
            {
                PhaseProfiler? profiler = run.Profiler;
                long start = profiler is null ? 0 : Stopwatch.GetTimestamp();
                result = run.Owner.Merge(_results!, _level);
                profiler?.Record(DivConPhase.Merge, _level, Stopwatch.GetTimestamp() - start);
            }
            catch (Exception e)
            {
                run.Fail(e);
                ReportNoResult();
                return;
            }

            _results = null;
            Report(result);
        }

        private void Report(TResult result)
        {
            Frame? parent = _parent;
            if (parent is null)
            {
                _run.TrySetResult(result); // the root: R2
                return;
            }

            parent._results![_index] = result;

            // Full fence: orders the slot write above before the decrement, so the child that takes _pending to 0
            // (and then schedules the merge, whose task start is an acquire) sees every sibling's slot (R3).
            if (Interlocked.Decrement(ref parent._pending) == 0)
            {
                parent.OnChildrenDone();
            }
        }

        /// <summary>Reports without a result (the run is stopped); also used by StartAsynchronous when the root task cannot be queued.</summary>
        public void ReportNoResult()
        {
            Frame? parent = _parent;
            if (parent is null)
            {
                _run.CompleteStopped(); // the root: R2
                return;
            }

            if (Interlocked.Decrement(ref parent._pending) == 0)
            {
                parent.OnChildrenDone();
            }
        }

        // Runs on the thread of the last child to report (R3): exactly once per split frame.
        private void OnChildrenDone()
        {
            AsyncRun run = _run;
            if (run.IsStopped)
            {
                _results = null;
                ReportNoResult(); // R4: no merge task for a stopped run
                return;
            }

            try
            {
                Task.Factory.StartNew(s_merge, this, CancellationToken.None, TaskCreationOptions.DenyChildAttach, run.Scheduler);
            }
            catch (Exception e)
            {
                run.Fail(e);
                ReportNoResult();
            }
        }
    }
}
