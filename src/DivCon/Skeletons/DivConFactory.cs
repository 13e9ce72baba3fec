using System.Runtime.CompilerServices;

namespace DivCon.Skeletons;

/// <summary>
/// The declarative model (§4.1.4): a D&amp;C program from its four muscles as lambdas. The functions may be called
/// concurrently from several workers. Four shapes:
/// <list type="bullet">
/// <item><see cref="CreateBinary{TParam, TResult}(Func{TParam, bool}, Func{TParam, ValueTuple{TParam, TParam}}, Func{TParam, TResult}, Func{TResult, TResult, TResult}, TaskScheduler?, Func{TParam, long}?)"/>:
/// a split into two halves, no arrays, no levels: the common case.</item>
/// <item><see cref="CreateBinary{TParam, TResult}(Func{TParam, DivConContext, bool}, Func{TParam, DivConContext, ValueTask{ValueTuple{TParam, TParam}}}, Func{TParam, DivConContext, ValueTask{TResult}}, Func{TResult, TResult, DivConContext, ValueTask{TResult}}, TaskScheduler?, Func{TParam, long}?)"/>:
/// the same with asynchronous muscles that get the <see cref="DivConContext"/> (token, level, scheduler).</item>
/// <item><see cref="Create{TParam, TResult}(Func{TParam, DivConContext, bool}, Func{TParam, DivConContext, ValueTask{TParam[]}}, Func{TParam, DivConContext, ValueTask{TResult}}, Func{TResult[], DivConContext, ValueTask{TResult}}, TaskScheduler?, Func{TParam, long}?)"/>:
/// any number of subproblems, asynchronous muscles with the context.</item>
/// <item>The thesis's shapes, scheduler first: Figure 4.3 (only <c>shouldSplit</c> gets the level) and the
/// level-aware one.</item>
/// </list>
/// The scheduler is optional (null: <see cref="TaskScheduler.Current"/> when the run starts, see
/// <see cref="DivConBase{TParam, TResult}.Scheduler"/>). <c>problemSize</c>, when given, lets the skeleton fault a
/// split whose subproblem is not smaller than its problem (a subproblem equal to its problem faults the run anyway).
/// </summary>
public static class DivConFactory
{
    /// <summary>A program whose split makes two subproblems: the common case, without arrays or levels.</summary>
    /// <param name="shouldSplit">Whether a problem is split rather than solved by <paramref name="executeMuscle"/>.</param>
    /// <param name="split">The two halves of a problem, each smaller than it.</param>
    /// <param name="executeMuscle">Solves a problem sequentially.</param>
    /// <param name="merge">Combines the results of the two halves (left, right), in that order.</param>
    /// <param name="taskScheduler">Where the run's tasks go; null: the scheduler current when the run starts.</param>
    /// <param name="problemSize">Optional: the size of a problem, to detect a split that does not shrink it.</param>
    /// <exception cref="ArgumentNullException">A muscle is null.</exception>
    public static DivConBase<TParam, TResult> CreateBinary<TParam, TResult>(
        Func<TParam, bool> shouldSplit,
        Func<TParam, (TParam Left, TParam Right)> split,
        Func<TParam, TResult> executeMuscle,
        Func<TResult, TResult, TResult> merge,
        TaskScheduler? taskScheduler = null,
        Func<TParam, long>? problemSize = null)
    {
        RequireMuscles(shouldSplit, split, executeMuscle, merge);
        return new SynchronousDivCon<TParam, TResult>(
            taskScheduler,
            (p, _) => shouldSplit(p),
            (p, _) =>
            {
                (TParam left, TParam right) = split(p);
                return [left, right];
            },
            (p, _) => executeMuscle(p),
            (r, _) => merge(r[0], r[1]),
            problemSize);
    }

    /// <summary>A program whose split makes two subproblems, with asynchronous muscles that get the <see cref="DivConContext"/>.</summary>
    /// <param name="shouldSplit">Whether a problem is split rather than solved by <paramref name="executeMuscle"/>.</param>
    /// <param name="split">The two halves of a problem, each smaller than it.</param>
    /// <param name="executeMuscle">Solves a problem.</param>
    /// <param name="merge">Combines the results of the two halves (left, right), in that order.</param>
    /// <param name="taskScheduler">Where the run's tasks go; null: the scheduler current when the run starts.</param>
    /// <param name="problemSize">Optional: the size of a problem, to detect a split that does not shrink it.</param>
    /// <exception cref="ArgumentNullException">A muscle is null.</exception>
    public static DivConBase<TParam, TResult> CreateBinary<TParam, TResult>(
        Func<TParam, DivConContext, bool> shouldSplit,
        Func<TParam, DivConContext, ValueTask<(TParam Left, TParam Right)>> split,
        Func<TParam, DivConContext, ValueTask<TResult>> executeMuscle,
        Func<TResult, TResult, DivConContext, ValueTask<TResult>> merge,
        TaskScheduler? taskScheduler = null,
        Func<TParam, long>? problemSize = null)
    {
        RequireMuscles(shouldSplit, split, executeMuscle, merge);
        return new AsynchronousDivCon<TParam, TResult>(
            taskScheduler, shouldSplit, (p, c) => SplitInTwo(split(p, c)), executeMuscle, (r, c) => merge(r[0], r[1], c), problemSize);
    }

    /// <summary>A program with any number of subproblems per split and asynchronous muscles that get the <see cref="DivConContext"/>.</summary>
    /// <param name="shouldSplit">Whether a problem is split rather than solved by <paramref name="executeMuscle"/>.</param>
    /// <param name="split">The subproblems of a problem: at least one, each smaller than it.</param>
    /// <param name="executeMuscle">Solves a problem.</param>
    /// <param name="merge">Combines the subresults, in the order of the subproblems.</param>
    /// <param name="taskScheduler">Where the run's tasks go; null: the scheduler current when the run starts.</param>
    /// <param name="problemSize">Optional: the size of a problem, to detect a split that does not shrink it.</param>
    /// <exception cref="ArgumentNullException">A muscle is null.</exception>
    public static DivConBase<TParam, TResult> Create<TParam, TResult>(
        Func<TParam, DivConContext, bool> shouldSplit,
        Func<TParam, DivConContext, ValueTask<TParam[]>> split,
        Func<TParam, DivConContext, ValueTask<TResult>> executeMuscle,
        Func<TResult[], DivConContext, ValueTask<TResult>> merge,
        TaskScheduler? taskScheduler = null,
        Func<TParam, long>? problemSize = null)
    {
        RequireMuscles(shouldSplit, split, executeMuscle, merge);
        return new AsynchronousDivCon<TParam, TResult>(taskScheduler, shouldSplit, split, executeMuscle, merge, problemSize);
    }

    /// <summary>Creates a D&amp;C program whose muscles all receive the recursion level (1 = top).</summary>
    /// <param name="taskScheduler">Where the run's tasks go; null: the scheduler current when the run starts.</param>
    /// <param name="shouldSplit">Whether a problem at a level is split.</param>
    /// <param name="split">The subproblems of a problem.</param>
    /// <param name="executeMuscle">Solves a problem sequentially.</param>
    /// <param name="merge">Combines the subresults, in the order of the subproblems.</param>
    /// <exception cref="ArgumentNullException">A muscle is null.</exception>
    public static DivConBase<TParam, TResult> Create<TParam, TResult>(
        TaskScheduler? taskScheduler,
        Func<TParam, int, bool> shouldSplit,
        Func<TParam, int, TParam[]> split,
        Func<TParam, int, TResult> executeMuscle,
        Func<TResult[], int, TResult> merge)
    {
        RequireMuscles(shouldSplit, split, executeMuscle, merge);
        return new SynchronousDivCon<TParam, TResult>(
            taskScheduler,
            (p, c) => shouldSplit(p, c.Level),
            (p, c) => split(p, c.Level),
            (p, c) => executeMuscle(p, c.Level),
            (r, c) => merge(r, c.Level),
            problemSize: null);
    }

    /// <summary>Creates a D&amp;C program; only <paramref name="shouldSplit"/> receives the recursion level (the shape of Figure 4.3).</summary>
    /// <param name="taskScheduler">Where the run's tasks go; null: the scheduler current when the run starts.</param>
    /// <param name="shouldSplit">Whether a problem at a level is split.</param>
    /// <param name="split">The subproblems of a problem.</param>
    /// <param name="executeMuscle">Solves a problem sequentially.</param>
    /// <param name="merge">Combines the subresults, in the order of the subproblems.</param>
    /// <exception cref="ArgumentNullException">A muscle is null.</exception>
    public static DivConBase<TParam, TResult> Create<TParam, TResult>(
        TaskScheduler? taskScheduler,
        Func<TParam, int, bool> shouldSplit,
        Func<TParam, TParam[]> split,
        Func<TParam, TResult> executeMuscle,
        Func<TResult[], TResult> merge)
    {
        RequireMuscles(shouldSplit, split, executeMuscle, merge);
        return new SynchronousDivCon<TParam, TResult>(
            taskScheduler, (p, c) => shouldSplit(p, c.Level), (p, _) => split(p), (p, _) => executeMuscle(p), (r, _) => merge(r), problemSize: null);
    }

    private static ValueTask<TParam[]> SplitInTwo<TParam>(ValueTask<(TParam Left, TParam Right)> halves)
    {
        if (halves.IsCompletedSuccessfully)
        {
            (TParam left, TParam right) = halves.Result;
            return new([left, right]);
        }

        return Await(halves);

        static async ValueTask<TParam[]> Await(ValueTask<(TParam Left, TParam Right)> pending)
        {
            (TParam left, TParam right) = await pending.ConfigureAwait(false);
            return [left, right];
        }
    }

    // Synchronous muscles: the base class's Async defaults wrap them without allocating.
    private sealed class SynchronousDivCon<TParam, TResult>(
        TaskScheduler? scheduler,
        Func<TParam, DivConContext, bool> shouldSplit,
        Func<TParam, DivConContext, TParam[]> split,
        Func<TParam, DivConContext, TResult> executeMuscle,
        Func<TResult[], DivConContext, TResult> merge,
        Func<TParam, long>? problemSize) : DivConBase<TParam, TResult>(scheduler)
    {
        protected override bool ShouldSplit(TParam problem, DivConContext context) => shouldSplit(problem, context);

        protected override TParam[] Split(TParam problem, DivConContext context) => split(problem, context);

        protected override TResult ExecuteMuscle(TParam problem, DivConContext context) => executeMuscle(problem, context);

        protected override TResult Merge(TResult[] subResults, DivConContext context) => merge(subResults, context);

        protected override bool TryGetProblemSize(TParam problem, out long size) => DelegateSize(problemSize, problem, out size);
    }

    // Asynchronous muscles: the skeleton calls only the Async overrides; the synchronous ones block on them (they
    // exist because the base class requires them, and are never called by the skeleton).
    private sealed class AsynchronousDivCon<TParam, TResult>(
        TaskScheduler? scheduler,
        Func<TParam, DivConContext, bool> shouldSplit,
        Func<TParam, DivConContext, ValueTask<TParam[]>> split,
        Func<TParam, DivConContext, ValueTask<TResult>> executeMuscle,
        Func<TResult[], DivConContext, ValueTask<TResult>> merge,
        Func<TParam, long>? problemSize) : DivConBase<TParam, TResult>(scheduler)
    {
        protected override bool ShouldSplit(TParam problem, DivConContext context) => shouldSplit(problem, context);

        protected override ValueTask<TParam[]> SplitAsync(TParam problem, DivConContext context) => split(problem, context);

        protected override ValueTask<TResult> ExecuteMuscleAsync(TParam problem, DivConContext context) => executeMuscle(problem, context);

        protected override ValueTask<TResult> MergeAsync(TResult[] subResults, DivConContext context) => merge(subResults, context);

        protected override TParam[] Split(TParam problem, DivConContext context) => split(problem, context).AsTask().GetAwaiter().GetResult();

        protected override TResult ExecuteMuscle(TParam problem, DivConContext context) => executeMuscle(problem, context).AsTask().GetAwaiter().GetResult();

        protected override TResult Merge(TResult[] subResults, DivConContext context) => merge(subResults, context).AsTask().GetAwaiter().GetResult();

        protected override bool TryGetProblemSize(TParam problem, out long size) => DelegateSize(problemSize, problem, out size);
    }

    private static bool DelegateSize<TParam>(Func<TParam, long>? problemSize, TParam problem, out long size)
    {
        size = problemSize is null ? 0 : problemSize(problem);
        return problemSize is not null;
    }

    // Each factory's null checks, with the caller's parameter names (ArgumentNullException.ParamName).
    private static void RequireMuscles(
        object shouldSplit,
        object split,
        object executeMuscle,
        object merge,
        [CallerArgumentExpression(nameof(shouldSplit))] string? shouldSplitName = null,
        [CallerArgumentExpression(nameof(split))] string? splitName = null,
        [CallerArgumentExpression(nameof(executeMuscle))] string? executeMuscleName = null,
        [CallerArgumentExpression(nameof(merge))] string? mergeName = null)
    {
        ArgumentNullException.ThrowIfNull(shouldSplit, shouldSplitName);
        ArgumentNullException.ThrowIfNull(split, splitName);
        ArgumentNullException.ThrowIfNull(executeMuscle, executeMuscleName);
        ArgumentNullException.ThrowIfNull(merge, mergeName);
    }
}
