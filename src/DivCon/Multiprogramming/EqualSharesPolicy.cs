using DivCon.Partitioning;

namespace DivCon.Multiprogramming;

/// <summary>
/// Every program gets cores / programs worker slots; the remainder goes one each to the programs with the most
/// available tasks (ties: lower index). With more programs than cores, the programs with the most available tasks
/// get one core each on the first decision, and then the cores rotate: a program that held no core in the previous
/// allocation goes first, so every program gets a core within ⌈programs / cores⌉ decisions. Placement keeps workers where they were as far as the counts allow
/// (<see cref="MinimalMovePlacement"/>). Pure: the result depends only on the input.
/// </summary>
public sealed class EqualSharesPolicy : IPartitioningPolicy
{
    /// <inheritdoc/>
    public string Name => "equal-shares";

    /// <inheritdoc/>
    public Allocation Decide(PartitioningInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        int m = input.Programs.Count;
        if (m == 0)
        {
            return new Allocation(0, Enumerable.Repeat(-1, input.Cores).ToArray());
        }

        var counts = new int[m];
        int share = input.Cores / m;
        Array.Fill(counts, share);
        int remainder = input.Cores - (share * m);
        foreach (int i in Enumerable.Range(0, m).OrderByDescending(i => input.Programs[i].AvailableTasks).ThenBy(i => i).Take(remainder))
        {
            counts[i]++;
        }

        // Fewer cores than programs: the cores rotate (the rule every partitioning policy shares), so no program
        // is left without a core for good.
        int[]? rotated = Rotation.Apply(input, counts, _ => true);
        return rotated is null
            ? MinimalMovePlacement.Place(input, counts, AllocationReason.EqualShare)
            : MinimalMovePlacement.Place(input, rotated, AllocationReason.Rotation);
    }
}
