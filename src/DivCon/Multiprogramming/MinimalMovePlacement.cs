using DivCon.Partitioning;

namespace DivCon.Multiprogramming;

/// <summary>
/// Turns per-program counts into per-slot owners, moving as few workers as possible from the previous allocation:
/// a slot keeps its program while that program still needs slots; the freed slots go, in slot order, to the
/// programs that need more, in program order (so a new program gets a contiguous run where one is free).
/// When the counts sum to more than the cores, the surplus is dropped from the last programs; when to fewer, slots
/// stay unassigned (-1) — either way the result says what was asked and <see cref="Allocation.Validate"/> judges it.
/// </summary>
public static class MinimalMovePlacement
{
    /// <summary>Places <paramref name="counts"/> (per program index of <paramref name="input"/>) on worker slots.</summary>
    public static Allocation Place(PartitioningInput input, IReadOnlyList<int> counts, AllocationReason reason)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(counts);
        int m = input.Programs.Count;
        if (counts.Count != m)
        {
            throw new ArgumentException($"There are {m} programs but {counts.Count} counts.", nameof(counts));
        }

        var indexById = new Dictionary<int, int>(m);
        for (int i = 0; i < m; i++)
        {
            indexById[input.Programs[i].ProgramId] = i;
        }

        var owners = new int[input.Cores];
        Array.Fill(owners, -1);
        var left = counts.ToArray();

        // Keep: a slot whose previous program still exists and still needs slots.
        if (input.Previous is { } previous && input.PreviousProgramIds is { } previousIds && previous.WorkerOwners.Count == input.Cores)
        {
            for (int slot = 0; slot < input.Cores; slot++)
            {
                int old = previous.WorkerOwners[slot];
                if (old >= 0 && old < previousIds.Count && indexById.TryGetValue(previousIds[old], out int now) && left[now] > 0)
                {
                    owners[slot] = now;
                    left[now]--;
                }
            }
        }

        // Fill the rest in slot order.
        int program = 0;
        for (int slot = 0; slot < input.Cores; slot++)
        {
            if (owners[slot] >= 0)
            {
                continue;
            }

            while (program < m && left[program] <= 0)
            {
                program++;
            }

            if (program == m)
            {
                break;
            }

            owners[slot] = program;
            left[program]--;
        }

        return new Allocation(m, owners, Enumerable.Repeat(reason, input.Cores).Select((r, slot) => owners[slot] >= 0 ? r : AllocationReason.None).ToArray());
    }
}
