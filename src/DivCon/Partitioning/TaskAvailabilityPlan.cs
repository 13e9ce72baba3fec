namespace DivCon.Partitioning;

/// <summary>
/// Task-availability repartitioning with every intermediate step (the thesis's Figure 5.20), as
/// <c>divcon plan</c> prints it.
/// </summary>
/// <param name="Scalability">The base allocation: shares and largest-remainder rounding.</param>
/// <param name="Tasks">Available tasks per program.</param>
/// <param name="Capped">a_i = min(base_i, tasks_i).</param>
/// <param name="Steps">Each core given after capping, in order: first the task-bounded ones, then the unbounded ones.</param>
/// <param name="Final">The final count per program; sums to the cores when there is a program.</param>
public sealed record TaskAvailabilityPlan(
    ScalabilityPlan Scalability,
    IReadOnlyList<int> Tasks,
    IReadOnlyList<int> Capped,
    IReadOnlyList<RepartitionStep> Steps,
    IReadOnlyList<int> Final)
{
    /// <summary>Cores not held after capping: cores − Σ capped_i (the figure's first "Remaining").</summary>
    public int RemainingAfterCap => Scalability.Cores - Capped.Sum();

    /// <summary>Whether the O(m) fast path applied: every program had at least its base in tasks, so no step ran.</summary>
    public bool NoProgramShortOfTasks => Steps.Count == 0 && RemainingAfterCap == 0;

    /// <summary>The score a_i / share_i of <paramref name="program"/> holding <paramref name="cores"/> cores.</summary>
    public double Score(int program, int cores) => cores / Scalability.Shares[program];

    /// <summary>
    /// The allocation of every program just before each step, then the final allocation: the rows of Figure 5.20's
    /// lower part. O(steps · programs): meant for reports, not for the decision itself.
    /// </summary>
    public IReadOnlyList<IReadOnlyList<int>> Rows()
    {
        var rows = new List<IReadOnlyList<int>>(Steps.Count + 1);
        var current = Capped.ToArray();
        foreach (RepartitionStep step in Steps)
        {
            rows.Add(current.ToArray());
            current[step.Program]++;
        }

        rows.Add(current);
        return rows;
    }
}
