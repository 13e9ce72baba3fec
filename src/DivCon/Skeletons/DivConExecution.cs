namespace DivCon.Skeletons;

/// <summary>How <see cref="DivConBase{TParam, TResult}.Input(TParam)"/> turns the recursion into tasks (§4.2).</summary>
public enum DivConExecution
{
    /// <summary>
    /// Asynchronous recursion (§4.2.2), the default: a parent never blocks on its children; the last child to finish
    /// schedules the parent's merge as a new task. Runs on schedulers of any size, including one worker.
    /// </summary>
    Asynchronous,

    /// <summary>
    /// Blocking fork-join (§4.2.1, Figure 4.5), kept only for comparison: a parent waits for its children, holding its
    /// worker meanwhile. On a bounded scheduler it completes only as far as the scheduler inlines the awaited children
    /// on the waiting worker; without inlining it starves.
    /// </summary>
    ForkJoin,
}
