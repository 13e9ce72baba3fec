namespace DivCon.Partitioning;

/// <summary>
/// Every program gets ⌊cores / programs⌋ cores; the remainder goes one each to the programs with the most available
/// tasks (ties: lower index). With more programs than cores, the cores go one each in the order every policy's single
/// cores go by (higher scalability, then lower index), and the <see cref="Repartitioner"/> rotates them among all
/// programs, so every program gets a core within ⌈programs / cores⌉ decisions. Pure: the result depends only on the
/// input.
/// </summary>
/// <remarks>Postconditions, asserted before returning: one share per program summing to the cores, each within one
/// core of every other (its cap is ⌈cores / programs⌉). Cost: O(m log m) for m programs (the remainder's order).</remarks>
public sealed class EqualSharesPolicy : IPartitioningPolicy
{
    /// <summary>The name used in reports and on the command line.</summary>
    public const string PolicyName = "equal-shares";

    /// <inheritdoc/>
    public string Name => PolicyName;

    /// <inheritdoc/>
    public Shares Decide(PartitioningInput input)
    {
        PartitioningValidation.ThrowIfInvalid(input);
        int[] counts = Compute(input);
        int m = counts.Length;
        if (m > 0)
        {
            int ceiling = (input.Cores + m - 1) / m;
            var caps = new int[m];
            Array.Fill(caps, ceiling);
            Postconditions.WithinCaps(counts, caps, PolicyName, "⌈cores / programs⌉");
        }

        return Shares.FromCounts(input, counts, reason: AllocationReason.EqualShare).Checked(input, PolicyName);
    }

    /// <summary>The equal counts per program index of <paramref name="input"/>.</summary>
    internal static int[] Compute(PartitioningInput input)
    {
        int m = input.Programs.Count;
        var counts = new int[m];
        if (m == 0)
        {
            return counts;
        }

        int share = input.Cores / m;
        Array.Fill(counts, share);
        int remainder = input.Cores - (share * m);
        if (share == 0)
        {
            // Fewer cores than programs: one core each by the rotation's order, so the holders form the block the
            // repartitioner's rotation moves round robin from the first decision on.
            var byPriority = new int[m];
            for (int i = 0; i < m; i++)
            {
                byPriority[i] = i;
            }

            TopSelection.SelectFirst(byPriority, remainder, (a, b) => ProgramPriority.Compare(0, input.Programs[a].Scalability, a, 0, input.Programs[b].Scalability, b));
            for (int k = 0; k < remainder; k++)
            {
                counts[byPriority[k]] = 1;
            }
        }
        else if (remainder > 0)
        {
            var order = new int[m];
            for (int i = 0; i < m; i++)
            {
                order[i] = i;
            }

            // Most available tasks first, ties lower index (a stable order: the answer is unique).
            Array.Sort(order, (a, b) =>
            {
                int c = input.Programs[b].AvailableTasks.CompareTo(input.Programs[a].AvailableTasks);
                return c != 0 ? c : a.CompareTo(b);
            });
            for (int k = 0; k < remainder; k++)
            {
                counts[order[k]]++;
            }
        }

        return counts;
    }
}
