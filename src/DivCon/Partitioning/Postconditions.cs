namespace DivCon.Partitioning;

/// <summary>
/// The postconditions policies assert before returning (oneTBB's <c>update_allotment</c> ends with
/// <c>__TBB_ASSERT(assigned == max_workers)</c>). Always on, not only in Debug builds: each check is O(programs),
/// cheap beside the decision, and a broken one must reach the <see cref="Repartitioner"/> as a rejection (with the
/// allocation in force kept) rather than as a wrong allocation applied.
/// </summary>
internal static class Postconditions
{
    /// <summary>The contract of every decision (<see cref="Shares.Problems"/>).</summary>
    public static Shares Checked(this Shares shares, PartitioningInput input, string policy)
    {
        IReadOnlyList<string> problems = shares.Problems(input);
        if (problems.Count > 0)
        {
            throw Broken(policy, string.Join(" ", problems));
        }

        return shares;
    }

    /// <summary>While cores suffice every program holds at least one; otherwise none holds a second.</summary>
    public static void OneEachWhileCoresSuffice(PartitioningInput input, IReadOnlyList<int> counts, string policy)
    {
        bool suffice = input.Cores >= input.Programs.Count;
        for (int i = 0; i < counts.Count; i++)
        {
            if (suffice ? counts[i] < 1 : counts[i] > 1)
            {
                throw Broken(policy, suffice
                    ? $"program {i} has no core although there are {input.Cores} cores for {counts.Count} programs."
                    : $"program {i} holds {counts[i]} cores while another has none.");
            }
        }
    }

    /// <summary>Each program within its cap: at most <paramref name="caps"/>[i] cores.</summary>
    public static void WithinCaps(IReadOnlyList<int> counts, IReadOnlyList<int> caps, string policy, string capName)
    {
        for (int i = 0; i < counts.Count; i++)
        {
            if (counts[i] > caps[i])
            {
                throw Broken(policy, $"program {i} holds {counts[i]} cores, above its cap of {caps[i]} ({capName}).");
            }
        }
    }

    /// <summary>Figure 5.20's availability property: a program holds more cores than its available tasks only when no program is short of tasks.</summary>
    public static void Availability(PartitioningInput input, IReadOnlyList<int> counts, string policy)
    {
        int over = -1, shortOf = -1;
        for (int i = 0; i < counts.Count; i++)
        {
            int tasks = input.Programs[i].AvailableTasks;
            if (counts[i] > tasks)
            {
                over = i;
            }
            else if (counts[i] < tasks)
            {
                shortOf = i;
            }
        }

        if (over >= 0 && shortOf >= 0)
        {
            throw Broken(policy, $"program {over} holds more cores than its available tasks while program {shortOf} is short of tasks (Figure 5.20's availability property).");
        }
    }

    private static InvalidOperationException Broken(string policy, string problem)
        => new($"The '{policy}' policy broke its postcondition: {problem}");
}
