namespace DivCon.Partitioning;

/// <summary>
/// Short jobs first, without knowing job sizes: the repartitioner's step (after the policy, the rotation and the probes)
/// that serves <i>newcomers</i> first, in the manner of least-attained-service scheduling or a two-level feedback queue.
/// Pure: the result depends only on the arguments.
/// </summary>
/// <remarks>
/// <para>The rule. A program whose attained service (<see cref="ProgramLoad.AttainedService"/>: the time its tasks ran,
/// summed over workers, since it was added) is below the quantum is a newcomer; one with work (tasks queued or running) is served first.
/// The newcomers hold every core, least attained first: the newcomer with the least attained service holds them all
/// (several with exactly that service share them equally, the remainder in arrival order; with more of them than cores,
/// the first in arrival order hold one each); the other newcomers hold none from the decision, and are served by the
/// cores it cannot use (idle lending) or when it passes them in service, at the next decision. The other programs'
/// cores are taken, so they hold none until the newcomers pass the quantum or run out of work (the next decision
/// after that gives the policy's shares back); with idle lending (the default policy) a core a newcomer cannot use is lent back to them at once
/// and recalled at its next task boundary when the newcomer queues work. Without a newcomer the policy's shares are
/// returned unchanged (the same object).</para>
/// <para>Why: job sizes are unknown, so a job that has run little is most likely a short one (request-sized work is the
/// common case, long jobs are few: docs/DESIGN.md, "Short jobs first"); serving it first cuts its waiting behind
/// long jobs at the cost of delaying them by at most the quantum of service per newcomer.</para>
/// </remarks>
public static class NewcomerPriority
{
    /// <summary>True when <paramref name="load"/>'s attained service is known and below <paramref name="quantum"/> (positive).</summary>
    public static bool IsNewcomer(ProgramLoad load, TimeSpan quantum)
    {
        ArgumentNullException.ThrowIfNull(load);
        return quantum > TimeSpan.Zero && load.AttainedService is TimeSpan attained && attained < quantum;
    }

    /// <summary>
    /// True when <paramref name="load"/> is a newcomer (<see cref="IsNewcomer"/>) with work, tasks queued or running: it is
    /// served first. Running tasks count too, so that a newcomer whose queue is empty for a moment (every task taken)
    /// keeps its cores; an idle newcomer (no task at all) is not served first.
    /// </summary>
    public static bool IsServedFirst(ProgramLoad load, TimeSpan quantum) => IsNewcomer(load, quantum) && (load.AvailableTasks > 0 || load.RunningTasks > 0);

    /// <summary>
    /// Applies the rule (see the remarks) to <paramref name="shares"/>, a valid decision for <paramref name="input"/>.
    /// </summary>
    /// <param name="input">The decision's input.</param>
    /// <param name="shares">The shares so far (the policy's, rotated and probed); they keep the contract for <paramref name="input"/>.</param>
    /// <param name="quantum">The attained service below which a program is a newcomer; zero or negative: the rule is off.</param>
    /// <returns>The shares with the newcomers served first; the newcomers' cores beyond those the shares already gave them say <see cref="AllocationReason.Newcomer"/>.</returns>
    public static Shares Apply(PartitioningInput input, Shares shares, TimeSpan quantum)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(shares);
        int m = input.Programs.Count;
        if (quantum <= TimeSpan.Zero || m == 0)
        {
            return shares;
        }

        List<int>? newcomers = null;
        for (int i = 0; i < m; i++)
        {
            if (IsServedFirst(input.Programs[i], quantum))
            {
                (newcomers ??= []).Add(i);
            }
        }

        if (newcomers is null)
        {
            return shares;
        }

        // Least attained first; ties in arrival order (a stable sort on the index).
        newcomers.Sort((a, b) =>
        {
            int byService = input.Programs[a].AttainedService!.Value.CompareTo(input.Programs[b].AttainedService!.Value);
            return byService != 0 ? byService : a.CompareTo(b);
        });

        // The least attained only (and those tied with it): least-attained-service serves the job that has had least,
        // so a request arriving beside a newcomer that has already run (a report's first chunk) gets every core, not half.
        int cores = input.Cores;
        TimeSpan least = input.Programs[newcomers[0]].AttainedService!.Value;
        int k = 1;
        while (k < newcomers.Count && input.Programs[newcomers[k]].AttainedService!.Value == least)
        {
            k++;
        }

        var counts = new int[m];
        for (int rank = 0; rank < k; rank++)
        {
            counts[newcomers[rank]] = k >= cores ? (rank < cores ? 1 : 0) : cores / k + (rank < cores % k ? 1 : 0);
        }

        return shares.WithCounts(input, counts, AllocationReason.Newcomer);
    }
}
