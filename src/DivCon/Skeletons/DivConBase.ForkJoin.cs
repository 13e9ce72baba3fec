using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace DivCon.Skeletons;

// Blocking fork-join recursion (§4.2.1, Figure 4.5), kept to compare against the asynchronous mode: a parent waits for
// its children, holding its worker and its thread's stack meanwhile.
//
// Roles
//   parent      – a node that split: queues one task per subproblem except the first, solves the first itself, then
//                 claims and solves every queued child that no worker has started yet, then blocks on the rest.
//   child task  – claims its node and solves it, or, if the parent claimed it first, returns at once (a no-op).
//   the run     – Run (DivConBase.Run.cs), completed exactly once by the root task after the root node returned.
//
// Invariants
//   (J1) Each node is solved exactly once: by whoever wins the CompareExchange on its _claimed (its parent, inline, or
//        its task), or, for the first child, by the parent without a claim (it was never queued).
//   (J2) A parent blocks only on children claimed by a task, that is, running on another thread. Every waiting chain
//        therefore ends at a running node that is not waiting, so the run always progresses: on one worker (the
//        parent claims every child), on a scheduler that never inlines, with any cancellation token. This replaces
//        Task.WaitAll(children, token), which inlines only for an infinite timeout and a non-cancelable token and
//        otherwise blocks every worker of a bounded scheduler on children that no worker is left to run.
//   (J3) A node returns only after its children returned, so the root (and the run's task) completes only when no
//        muscle call of the run is running and none will start (as the asynchronous mode's R2). Child tasks that the
//        parent claimed may still be queued afterwards: they call no muscle.
//   (J4) Stack: every level solved inline adds frames to the thread's stack. Before solving a child inline the parent
//        checks RuntimeHelpers.TryEnsureSufficientExecutionStack; if the stack is nearly full the run faults with
//        InsufficientExecutionStackException instead of overflowing (which would kill the process). Asynchronous mode
//        has no such limit.
//   (J5) Muscles run with the scheduler hidden (TaskCreationOptions.HideScheduler): a worker blocked here cannot run
//        continuations queued to its own scheduler, so an await inside a muscle must not target it. An asynchronous
//        muscle that does not complete synchronously is waited for by blocking (its continuations run on the thread
//        pool: sync-over-async, documented on DivConExecution.ForkJoin); DivConContext.ForAsync needs no pool thread
//        (its caller takes part, F2 in NestedFor.cs, and its last participant runs the muscle's continuation).
public abstract partial class DivConBase<TParam, TResult>
{
    private static readonly Action<object?> s_forkJoinRoot = static state => ((ForkJoinNode)state!).SolveRoot();
    private static readonly Action<object?> s_forkJoinChild = static state => ((ForkJoinNode)state!).SolveIfUnclaimed();

    private static Task<TResult> StartForkJoin(TParam problem, Run run)
    {
        var root = new ForkJoinNode(run, level: 1, problem);
        if (!run.TryQueue(s_forkJoinRoot, root))
        {
            run.Complete(hasResult: false, default!); // the recorded fault ends the run
        }

        return run.Task;
    }

    private sealed class ForkJoinNode
    {
        private readonly Run _run;
        private readonly int _level;
        private TParam _problem;
        private int _claimed;          // 0, then 1 once claimed (J1): CompareExchange by the parent or the node's task
        private bool _claimedByParent; // parent only
        private Task? _task;           // parent only: the child task queued for this node, if any

        // Written by the thread that solved the node; read by the parent after it solved the node itself, or after
        // the node's task completed (Task.Wait is an acquire of everything the task's body wrote).
        private TResult _result = default!;
        private bool _hasResult;

        public ForkJoinNode(Run run, int level, TParam problem)
        {
            _run = run;
            _level = level;
            _problem = problem;
        }

        /// <summary>Body of the root task: solves the recursion, then completes the run (once, outside any catch: J3).</summary>
        public void SolveRoot()
        {
            bool hasResult = Solve(out TResult result);
            _run.Complete(hasResult, result);
        }

        /// <summary>Body of a child task (J1).</summary>
        public void SolveIfUnclaimed()
        {
            if (Interlocked.CompareExchange(ref _claimed, 1, 0) == 0)
            {
                _hasResult = Solve(out _result);
            }
        }

        // The recursion on the current thread. Returns false (no result) when the run is stopped; never throws.
        private bool Solve(out TResult result)
        {
            result = default!;
            Run run = _run;
            if (run.IsStopped)
            {
                return false;
            }

            DivConBase<TParam, TResult> owner = run.Owner;
            PhaseProfiler? profiler = run.Profiler;
            DivConContext context = run.ContextAt(_level);
            TParam problem = _problem;
            _problem = default!;
            TParam[] subProblems;
            try
            {
                long start = profiler is null ? 0 : Stopwatch.GetTimestamp();
                if (!owner.ShouldSplit(problem, context))
                {
                    result = Wait(owner.ExecuteMuscleAsync(problem, context));
                    profiler?.Record(DivConPhase.Execute, _level, Stopwatch.GetTimestamp() - start);
                    return true;
                }

                start = profiler is null ? 0 : Stopwatch.GetTimestamp();
                TParam[]? returned = Wait(owner.SplitAsync(problem, context));
                profiler?.Record(DivConPhase.Split, _level, Stopwatch.GetTimestamp() - start);
                subProblems = owner.CheckSplit(problem, returned, _level);
            }
            catch (Exception e)
            {
                run.Fail(e);
                return false;
            }

            var children = new ForkJoinNode[subProblems.Length];
            for (int i = 0; i < children.Length; i++)
            {
                children[i] = new ForkJoinNode(run, _level + 1, subProblems[i]);
            }

            // Fork: queue every child but the first. A child whose task could not be queued (the scheduler refused;
            // the run is now stopped) is claimed below and returns at once.
            for (int i = 1; i < children.Length; i++)
            {
                children[i]._task = run.TryStart(s_forkJoinChild, children[i]);
            }

            // Join (J2): the first child here, then, latest queued first (the end a worker's own deque pops), every
            // child no task has claimed; then block only on children that are running elsewhere.
            SolveInline(children[0]);
            for (int i = children.Length - 1; i >= 1; i--)
            {
                if (Interlocked.CompareExchange(ref children[i]._claimed, 1, 0) == 0)
                {
                    children[i]._claimedByParent = true;
                    SolveInline(children[i]);
                }
            }

            var subResults = new TResult[children.Length];
            bool complete = true;
            for (int i = 0; i < children.Length; i++)
            {
                ForkJoinNode child = children[i];
                if (i > 0 && !child._claimedByParent)
                {
                    child._task!.Wait(); // running on another thread (J2); its body never throws
                }

                complete &= child._hasResult;
                subResults[i] = child._result;
            }

            if (!complete || run.IsStopped)
            {
                return false;
            }

            try
            {
                long start = profiler is null ? 0 : Stopwatch.GetTimestamp();
                result = Wait(owner.MergeAsync(subResults, context));
                profiler?.Record(DivConPhase.Merge, _level, Stopwatch.GetTimestamp() - start);
                return true;
            }
            catch (Exception e)
            {
                run.Fail(e);
                return false;
            }
        }

        private void SolveInline(ForkJoinNode child)
        {
            if (!RuntimeHelpers.TryEnsureSufficientExecutionStack())
            {
                // J4: fault rather than overflow.
                _run.Fail(new InsufficientExecutionStackException(
                    $"Fork-join recursion at level {child._level}: the thread's stack is nearly full (each level a thread waits at holds " +
                    "stack frames). Use DivConExecution.Asynchronous for recursions this deep."));
                return;
            }

            child._hasResult = child.Solve(out child._result);
        }

        // J5: block on an asynchronous muscle that did not complete synchronously; rethrows its original exception.
        private static T Wait<T>(ValueTask<T> task) => task.IsCompleted ? task.GetAwaiter().GetResult() : task.AsTask().GetAwaiter().GetResult();
    }
}
