using System.Diagnostics;

namespace DivCon.Skeletons;

// Asynchronous recursion (§4.2.2, Figures 4.6–4.8), without Unwrap chains: one Frame per node of the recursion tree.
//
// Roles
//   node task  – runs Frame.Process for one (sub)problem: ShouldSplit, then either SplitAsync + spawn one node task
//                per subproblem, or ExecuteMuscleAsync + report the result to the parent frame. It never waits.
//   merge task – runs Frame.ProcessMerge once all children of a split frame have reported.
//   completion – when a muscle's ValueTask is not complete on return, the rest of the node's step (spawning the
//                children, reporting) runs as a synchronous continuation on the thread that completes it.
//   the run    – Run (DivConBase.Run.cs): completed exactly once, by the report of the root frame.
//
// Invariants
//   (R1) Every frame reports to its parent exactly once: after its own muscle call completed (or was skipped), and,
//        if it split, after every child reported. Each report happens outside the try/catch that records a muscle's
//        fault, so a report can never be followed by a second one from a catch. Spawning a frame's children is
//        accounted for even when queuing fails part-way (the unspawned children are subtracted from Pending in one
//        step).
//   (R2) Hence the root reports last, and the run's task completes only when no muscle call of the run is in
//        progress and none will start: nothing of the run is left running on the scheduler. What remains is the
//        return path of the last task body (a few instructions after Complete), since the run's task completion
//        source runs its continuations asynchronously.
//   (R3) Pending of a split frame counts children that have not reported. The child whose Interlocked.Decrement
//        takes it to 0 is the last; only it goes on with the parent, so each merge is scheduled exactly once.
//   (R4) Once the run is stopped (first fault, or the token seen canceled), frames skip their muscle calls and
//        report "no result" upwards; a split frame whose children are done skips scheduling its merge and reports
//        on at once (no task), so a stopped run drains with the tasks already queued and spawns nothing new.
//   (R5) Reporting "no result" climbs the ancestors in a loop, not by recursion: a stopped run of any depth (a
//        one-child chain of 10^5 levels) ends without growing the stack.
//
// Cancellation: node and merge tasks are queued with CancellationToken.None and poll the run's state themselves.
// Rejected: passing the token to StartNew. TPL then cancels a queued task without running its body, so that frame
// would never report (R1 broken) and the run would never complete.
//
// Allocation per node: the Frame and its Task; a split node adds its results array and one merge Task. The task
// bodies are static delegates, so no closures. An asynchronous muscle that does not complete synchronously adds its
// Task and one continuation.
public abstract partial class DivConBase<TParam, TResult>
{
    private static readonly Action<object?> s_process = static state => ((Frame)state!).Process();
    private static readonly Action<object?> s_merge = static state => ((Frame)state!).ProcessMerge();
    private static readonly Action<Task<TParam[]>, object?> s_splitCompleted =
        static (task, state) => ((Frame)state!).OnSplitCompleted(new ValueTask<TParam[]>(task));
    private static readonly Action<Task<TResult>, object?> s_executeCompleted =
        static (task, state) => ((Frame)state!).OnExecuteCompleted(new ValueTask<TResult>(task));
    private static readonly Action<Task<TResult>, object?> s_mergeCompleted =
        static (task, state) => ((Frame)state!).OnMergeCompleted(new ValueTask<TResult>(task));

    private static Task<TResult> StartAsynchronous(TParam problem, Run run)
    {
        var root = new Frame(run, parent: null, index: 0, level: 1, problem);
        if (!run.TryQueue(s_process, root))
        {
            // The scheduler refused the root task (e.g. disposed): nothing runs; the recorded fault ends the run.
            root.ReportNoResult();
        }

        return run.Task;
    }

    /// <summary>One node of the recursion tree (see the protocol at the top of this file).</summary>
    private sealed class Frame
    {
        private const TaskContinuationOptions ContinuationOptions =
            TaskContinuationOptions.ExecuteSynchronously | TaskContinuationOptions.DenyChildAttach;

        private readonly Run _run;
        private readonly Frame? _parent;
        private readonly int _index;   // this frame's slot in _parent._results
        private readonly int _level;
        private TParam _problem;       // owner only; cleared once used so that big subproblems can be collected
        private long _startTimestamp;  // owner only: when the current muscle call started (profiling)

        // Written by the owner before its children are queued (queuing publishes it to the children); each child
        // writes only its own slot, before its Interlocked.Decrement of _pending. Read by the merge task.
        private TResult[]? _results;

        // Children that have not reported yet (R3). Set before the first child is queued; then only Interlocked.
        private int _pending;

        public Frame(Run run, Frame? parent, int index, int level, TParam problem)
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
            Run run = _run;
            if (run.IsStopped)
            {
                ReportNoResult();
                return;
            }

            DivConBase<TParam, TResult> owner = run.Owner;
            DivConContext context = run.ContextAt(_level);
            bool split;
            ValueTask<TParam[]> splitting = default;
            ValueTask<TResult> executing = default;
            try
            {
                split = owner.ShouldSplit(_problem, context);
                _startTimestamp = run.Profiler is null ? 0 : Stopwatch.GetTimestamp();
                if (split)
                {
                    splitting = owner.SplitAsync(_problem, context);
                }
                else
                {
                    executing = owner.ExecuteMuscleAsync(_problem, context);
                }
            }
            catch (Exception e)
            {
                run.Fail(e);
                ReportNoResult();
                return;
            }

            if (split)
            {
                if (splitting.IsCompleted)
                {
                    OnSplitCompleted(splitting);
                }
                else
                {
                    splitting.AsTask().ContinueWith(s_splitCompleted, this, CancellationToken.None, ContinuationOptions, TaskScheduler.Default);
                }
            }
            else if (executing.IsCompleted)
            {
                OnExecuteCompleted(executing);
            }
            else
            {
                executing.AsTask().ContinueWith(s_executeCompleted, this, CancellationToken.None, ContinuationOptions, TaskScheduler.Default);
            }
        }

        /// <summary>The rest of a node's split, once SplitAsync's task is complete.</summary>
        public void OnSplitCompleted(ValueTask<TParam[]> splitting)
        {
            if (!TryTakeResult(splitting, DivConPhase.Split, out TParam[]? returned))
            {
                ReportNoResult();
                return;
            }

            TParam[] subProblems;
            try
            {
                subProblems = _run.Owner.CheckSplit(_problem, returned, _level);
            }
            catch (Exception e)
            {
                _run.Fail(e);
                ReportNoResult();
                return;
            }

            _problem = default!;
            SpawnChildren(subProblems);
        }

        /// <summary>The rest of a leaf, once ExecuteMuscleAsync's task is complete.</summary>
        public void OnExecuteCompleted(ValueTask<TResult> executing)
        {
            _problem = default!;
            if (TryTakeResult(executing, DivConPhase.Execute, out TResult result))
            {
                Report(result);
            }
            else
            {
                ReportNoResult();
            }
        }

        // The value of a completed muscle call (timed from _startTimestamp), or false after recording its exception.
        private bool TryTakeResult<T>(ValueTask<T> muscle, DivConPhase phase, out T value)
        {
            try
            {
                value = muscle.GetAwaiter().GetResult();
                _run.Profiler?.Record(phase, _level, Stopwatch.GetTimestamp() - _startTimestamp);
                return true;
            }
            catch (Exception e)
            {
                _run.Fail(e);
                value = default!;
                return false;
            }
        }

        private void SpawnChildren(TParam[] subProblems)
        {
            Run run = _run;
            int count = subProblems.Length;
            _results = new TResult[count];
            _pending = count; // plain write: happens-before each child, because queuing a task publishes it (R3)
            int childLevel = _level + 1;
            for (int i = 0; i < count; i++)
            {
                if (!run.TryQueue(s_process, new Frame(run, this, i, childLevel, subProblems[i])))
                {
                    // Children i..count−1 were never queued and will never report: account for them in one step (R1).
                    if (Interlocked.Add(ref _pending, -(count - i)) == 0)
                    {
                        _results = null;
                        ReportNoResult(); // the run is stopped (TryQueue recorded the fault): R4
                    }

                    return;
                }
            }
        }

        /// <summary>Body of a merge task, queued by the last child to report (R3).</summary>
        public void ProcessMerge()
        {
            Run run = _run;
            if (run.IsStopped)
            {
                _results = null;
                ReportNoResult();
                return;
            }

            ValueTask<TResult> merging;
            try
            {
                _startTimestamp = run.Profiler is null ? 0 : Stopwatch.GetTimestamp();
                merging = run.Owner.MergeAsync(_results!, run.ContextAt(_level));
            }
            catch (Exception e)
            {
                run.Fail(e);
                _results = null;
                ReportNoResult();
                return;
            }

            if (merging.IsCompleted)
            {
                OnMergeCompleted(merging);
            }
            else
            {
                merging.AsTask().ContinueWith(s_mergeCompleted, this, CancellationToken.None, ContinuationOptions, TaskScheduler.Default);
            }
        }

        /// <summary>The rest of a merge, once MergeAsync's task is complete.</summary>
        public void OnMergeCompleted(ValueTask<TResult> merging)
        {
            _results = null;
            if (TryTakeResult(merging, DivConPhase.Merge, out TResult result))
            {
                Report(result);
            }
            else
            {
                ReportNoResult();
            }
        }

        // Called once per frame with its result (R1), outside any try that records faults.
        private void Report(TResult result)
        {
            Frame? parent = _parent;
            if (parent is null)
            {
                _run.Complete(hasResult: true, result); // the root: R2
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

        // Runs on the thread of the last child to report, when that child had a result (R3): once per split frame.
        private void OnChildrenDone()
        {
            Run run = _run;
            if (run.IsStopped || !run.TryQueue(s_merge, this))
            {
                _results = null;
                ReportNoResult(); // R4: no merge for a stopped run
            }
        }

        /// <summary>
        /// Reports without a result (the run is stopped), then, for each ancestor whose last pending child this was,
        /// reports that one without a result too: a loop up the tree, not a recursion (R5).
        /// </summary>
        public void ReportNoResult()
        {
            Frame frame = this;
            while (true)
            {
                Frame? parent = frame._parent;
                if (parent is null)
                {
                    frame._run.Complete(hasResult: false, default!); // the root: R2
                    return;
                }

                if (Interlocked.Decrement(ref parent._pending) != 0)
                {
                    return;
                }

                // Every child of parent has reported and one had no result, so the run is stopped (a frame reports
                // no result only then, and stopping is final): parent merges nothing and reports no result (R4).
                parent._results = null;
                frame = parent;
            }
        }
    }
}
