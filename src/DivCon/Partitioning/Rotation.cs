namespace DivCon.Partitioning;

/// <summary>
/// The one rotation rule, applied by the <see cref="Repartitioner"/> to every policy's shares when there are fewer
/// cores than programs that want one (so some program must go without): cores rotate, so no program is starved for
/// good.
/// </summary>
/// <remarks>
/// <para>Applies only when the number of eligible programs (<see cref="IPartitioningPolicy.Rotation"/>: all
/// programs, or those with available tasks) exceeds the cores and a previous allocation is known. In that regime
/// every built-in policy gives one core each to <c>cores</c> eligible programs. Rotation keeps the one-core-each
/// result but picks the programs in this order instead: first the eligible programs that held no core in the
/// previous allocation (by program id; a program that has just arrived held none), in the order "higher
/// scalability, then lower index" (<see cref="ProgramPriority.Compare"/> with equal scores) read cyclically from
/// just after the block of previous holders (the first holder, in that order, followed by a non-holder); then the
/// previous holders in that order.</para>
/// <para>With an unchanged input the holders form one cyclic block in policy order after the first decision, and
/// each decision moves the block forward by <c>cores</c> programs: round robin, so every eligible program gets a
/// core within ⌈m / cores⌉ decisions for m eligible programs. (Ordering the waiting programs by plain policy order
/// would not: with 5 programs on 2 cores the two least scalable could alternate with nobody but each other.)</para>
/// <para>When cores ≥ eligible programs, or on the first decision, nothing changes: the thesis's behaviour.</para>
/// </remarks>
internal static class Rotation
{
    /// <summary>
    /// The per-program counts after rotation, or <see langword="null"/> when rotation does not apply and the
    /// policy's own <paramref name="counts"/> stand. <paramref name="eligible"/>: which programs may get a core.
    /// <paramref name="awaitingService"/>: ids of programs that hold a core in the previous allocation but have not been
    /// served in it yet (no worker has reached them); they keep their core ahead of everyone, so a turn is not used up
    /// before it began.
    /// </summary>
    /// <remarks>
    /// Why "awaiting" exists: a turn given by one decision could be taken back by the next before the worker got there
    /// (a worker waits for the task in hand, or on a loaded machine for a processor), and with decisions every few
    /// milliseconds (the starved trigger's, short intervals) a program could lose every turn that way. A real-thread
    /// test saw it (MultiProgramSchedulerTests' chaos run under load: a program with 785 tasks queued held no worker for
    /// 120 s while about 1,000 decisions a second gave it a core and took it back).
    /// </remarks>
    public static int[]? Apply(PartitioningInput input, IReadOnlyList<int> counts, Func<int, bool> eligible, IReadOnlyCollection<int>? awaitingService = null)
    {
        int m = input.Programs.Count;
        int cores = input.Cores;
        if (m <= cores || input.Previous is null)
        {
            return null;
        }

        // Policy order over the eligible programs: higher scalability, then lower index.
        var order = Enumerable.Range(0, m).Where(eligible).ToArray();
        if (order.Length <= cores)
        {
            return null;
        }

        Array.Sort(order, (a, b) => ProgramPriority.Compare(0, input.Programs[a].Scalability, a, 0, input.Programs[b].Scalability, b));

        int e = order.Length;
        var held = order.Select(p => input.Previous.CoresOf(input.Programs[p].ProgramId) > 0).ToArray();
        var awaiting = order.Select((p, r) => held[r] && awaitingService?.Contains(input.Programs[p].ProgramId) == true).ToArray();

        // Start just after the block of holders: the first holder (in policy order) whose successor is waiting.
        int start = 0;
        for (int r = 0; r < e; r++)
        {
            if (held[r] && !held[(r + 1) % e])
            {
                start = (r + 1) % e;
                break;
            }
        }

        // First the holders whose turn has not begun (they keep it: their turn is still to come), then the waiting
        // programs from the start, then the other holders.
        var result = new int[m];
        int given = 0;
        for (int r = 0; r < e && given < cores; r++)
        {
            if (awaiting[r])
            {
                result[order[r]] = 1;
                given++;
            }
        }

        for (int k = 0; k < e && given < cores; k++)
        {
            int r = (start + k) % e;
            if (!held[r])
            {
                result[order[r]] = 1;
                given++;
            }
        }

        for (int r = 0; r < e && given < cores; r++)
        {
            if (held[r] && !awaiting[r])
            {
                result[order[r]] = 1;
                given++;
            }
        }

        return result;
    }

    /// <summary>
    /// Per program, the reason of each of its cores after rotation: a program that keeps the policy's count keeps
    /// its policy reasons; one that gains a core it would not have had gets <see cref="AllocationReason.Rotation"/>.
    /// </summary>
    public static AllocationReason[][] Reasons(IReadOnlyList<int> rotated, IReadOnlyList<int> policyCounts, IReadOnlyList<IReadOnlyList<AllocationReason>> policyReasons)
    {
        var reasons = new AllocationReason[rotated.Count][];
        for (int i = 0; i < rotated.Count; i++)
        {
            reasons[i] = rotated[i] <= policyCounts[i]
                ? policyReasons[i].Take(rotated[i]).ToArray()
                : Enumerable.Repeat(AllocationReason.Rotation, rotated[i]).ToArray();
        }

        return reasons;
    }
}
