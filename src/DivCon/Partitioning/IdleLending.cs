namespace DivCon.Partitioning;

/// <summary>
/// Idle lending as a pure rule (docs/DESIGN.md §4, "beyond the thesis" (c)): which program an idle worker should serve
/// until the next decision (or until that program runs out of tasks), instead of idling for up to a whole interval.
/// </summary>
/// <remarks>
/// <para><b>Rule.</b> Among the programs other than the lender that have a task waiting right now
/// (availableTasks_i &gt; 0), the one with the lowest score servingWorkers_i / share_i (ties: higher scalability,
/// then lower index), the same order as <see cref="TaskAvailabilityPolicy"/>'s steps. A queued task counts as
/// unmet because the worker asking is idle: every queued task of another program is one that no worker is running.
/// No such program: -1, the worker stays idle.</para>
/// <para><b>How the mechanism uses it</b> (the MultiProgramScheduler, when its policy implements
/// <see cref="IIdleLendingPolicy"/>, with the policy's rule; with its IdleLending option on and another policy, with
/// this rule):</para>
/// <list type="number">
/// <item>A worker whose slot the allocation gives to program p finds no task in p (its deque, p's global queue, steals
/// within p), spinning a little first.</item>
/// <item>Before blocking it calls the rule with the scalabilities of the decision in force, the number of workers
/// serving each program now (owned plus lent in, minus lent out: a counter per program that every move updates) and
/// each program's available-task counter, and p as the lender. The counts may be slightly stale, and several idle
/// workers may ask at once: a wrong pick costs one idle check, not correctness. An index out of range, p itself or an
/// exception means no loan (and counts as a rejected decision).</item>
/// <item>If it gets a program b ≠ -1, it moves to b with the ordinary move protocol (docs/DESIGN.md §3: finish the
/// current task, return p's local tasks to p's global queue, start with b's global queue), counts itself as
/// serving b, and records <see cref="AllocationReason.IdleLending"/> on the allocation timeline.</item>
/// <item>It serves b until the next allocation is published (then it goes wherever that allocation puts its slot)
/// or until b has no task it can find (then it returns to p, recorded as <see cref="AllocationReason.LoanReturn"/>,
/// and may ask again once p has none either). The allocation itself never changes: a loan is the mechanism's temporary
/// deviation from it. When the two race, the allocation wins: a worker moves itself only by a compare-and-swap from
/// the set it serves, which fails once the scheduler has reassigned it.</item>
/// </list>
/// <para>O(m) per call, no allocation: it may run on a worker between tasks.</para>
/// </remarks>
public static class IdleLending
{
    /// <summary>The program an idle worker of <paramref name="lender"/> should be lent to, or -1 for none.</summary>
    /// <param name="scalabilities">Per program, its scalability (positive).</param>
    /// <param name="servingWorkers">Per program, the workers serving it now (non-negative).</param>
    /// <param name="availableTasks">Per program, its queued tasks now (non-negative).</param>
    /// <param name="lender">Index of the idle worker's own program; -1 if the worker currently has none.</param>
    public static int ChooseBorrower(
        ReadOnlySpan<double> scalabilities, ReadOnlySpan<int> servingWorkers, ReadOnlySpan<int> availableTasks, int lender)
    {
        int m = scalabilities.Length;
        if (servingWorkers.Length != m || availableTasks.Length != m)
        {
            throw new ArgumentException(
                $"Give one value per program in each span: {m} scalabilities, {servingWorkers.Length} serving counts, {availableTasks.Length} task counts.");
        }

        if (lender < -1 || lender >= m)
        {
            throw new ArgumentOutOfRangeException(nameof(lender), lender, $"The lender must be -1 or a program index in 0..{m - 1}.");
        }

        int best = -1;
        double bestKey = 0, bestS = 0;
        for (int i = 0; i < m; i++)
        {
            if (i == lender || availableTasks[i] <= 0)
            {
                continue;
            }

            double s = scalabilities[i];
            if (!(s > 0) || double.IsInfinity(s))
            {
                throw new ArgumentOutOfRangeException(nameof(scalabilities), s, $"Scalability {i} must be a positive finite number.");
            }

            double key = Math.Max(servingWorkers[i], 0) / s;
            if (best < 0 || ProgramPriority.CompareRaw(key, s, i, bestKey, bestS, best) < 0)
            {
                best = i;
                bestKey = key;
                bestS = s;
            }
        }

        return best;
    }
}
