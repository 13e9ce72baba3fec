namespace DivCon.Partitioning;

/// <summary>
/// Turns per-program core counts into worker slot owners (docs/DESIGN.md §4, "Placement"). Pure, like the policies.
/// </summary>
/// <remarks>
/// <para>Rules, in order:</para>
/// <list type="number">
/// <item><b>Keep.</b> With a previous allocation, each program that was already there (matched by
/// <see cref="ProgramLoad.ProgramId"/> through <see cref="PartitioningInput.PreviousProgramIds"/>) keeps
/// min(old_i, new_i) of its slots: those in the cache groups where it holds most slots, then the lowest ids. No
/// other placement can keep more, so the moves (slots whose owner changes) are the fewest possible; when the program
/// set is unchanged and every slot was assigned, moves = Σ max(0, old_i − new_i).</item>
/// <item><b>Whole cache groups.</b> With <see cref="PartitioningInput.CacheGroups"/>, programs still needing cores (most
/// needed first, ties lower index) take whole free groups that fit, the largest first (ties lower group index).</item>
/// <item><b>Same group.</b> Free slots in a group where a program already holds slots go to that program first
/// (the one holding most there, ties lower index), up to its need.</item>
/// <item><b>Contiguous.</b> The remaining free slots, in group order (or ascending id without groups), are handed
/// out as consecutive runs to the programs still in need, ordered by the lowest slot each already holds (programs
/// holding none after those, by index). With no previous allocation and no groups this gives each program one
/// contiguous range, in program order.</item>
/// </list>
/// </remarks>
public static class Placement
{
    /// <summary>Places <paramref name="counts"/> on the worker slots of <paramref name="input"/>.</summary>
    /// <param name="input">The decision's input (cores, programs, cache groups, previous allocation).</param>
    /// <param name="counts">Per program, its cores; they sum to the cores when there is at least one program.</param>
    /// <param name="reasons">
    /// Optional: per program, one reason per core (length = its count), given to its slots in ascending slot order;
    /// <see langword="null"/> for <see cref="AllocationReason.None"/>.
    /// </param>
    /// <exception cref="ArgumentException">The input is invalid or the counts do not fit it.</exception>
    public static Allocation Place(PartitioningInput input, IReadOnlyList<int> counts, IReadOnlyList<IReadOnlyList<AllocationReason>>? reasons = null)
    {
        PartitioningValidation.ThrowIfInvalid(input);
        ArgumentNullException.ThrowIfNull(counts);
        int n = input.Cores;
        int m = input.Programs.Count;
        CheckCounts(n, m, counts, reasons);

        var owners = new int[n];
        Array.Fill(owners, -1);
        if (m == 0)
        {
            return new Allocation(0, owners);
        }

        int[] groupOf = GroupOfSlots(n, input.CacheGroups);
        var need = counts.ToArray();
        KeepPrevious(input, need, owners, groupOf);

        if (input.CacheGroups is not null)
        {
            TakeWholeGroups(input.CacheGroups, need, owners);
            FillSameGroup(input.CacheGroups, need, owners, m);
        }

        FillContiguous(input.CacheGroups, need, owners, m);
        return new Allocation(m, owners, ReasonsPerSlot(owners, reasons, m));
    }

    private static void CheckCounts(int n, int m, IReadOnlyList<int> counts, IReadOnlyList<IReadOnlyList<AllocationReason>>? reasons)
    {
        if (counts.Count != m)
        {
            throw new ArgumentException($"There are {m} programs but {counts.Count} counts.", nameof(counts));
        }

        long sum = 0;
        for (int i = 0; i < m; i++)
        {
            if (counts[i] < 0)
            {
                throw new ArgumentException($"Program {i} has a negative count ({counts[i]}).", nameof(counts));
            }

            sum += counts[i];
            if (reasons is not null && (reasons.Count != m || reasons[i].Count != counts[i]))
            {
                throw new ArgumentException($"Program {i} needs exactly one reason per core.", nameof(reasons));
            }
        }

        if (m > 0 && sum != n)
        {
            throw new ArgumentException($"The counts sum to {sum} but there are {n} worker slots; every slot must be placed.", nameof(counts));
        }
    }

    private static int[] GroupOfSlots(int n, IReadOnlyList<IReadOnlyList<int>>? groups)
    {
        var groupOf = new int[n];
        if (groups is null)
        {
            return groupOf;
        }

        for (int g = 0; g < groups.Count; g++)
        {
            foreach (int slot in groups[g])
            {
                groupOf[slot] = g;
            }
        }

        return groupOf;
    }

    private static void KeepPrevious(PartitioningInput input, int[] need, int[] owners, int[] groupOf)
    {
        if (input.Previous is null || input.PreviousProgramIds is null)
        {
            return;
        }

        var indexOfId = new Dictionary<int, int>(input.Programs.Count);
        for (int i = 0; i < input.Programs.Count; i++)
        {
            indexOfId[input.Programs[i].ProgramId] = i;
        }

        var oldToNew = input.PreviousProgramIds.Select(id => indexOfId.TryGetValue(id, out int i) ? i : -1).ToArray();
        var slotsOf = new List<int>?[need.Length];
        IReadOnlyList<int> previous = input.Previous.WorkerOwners;
        for (int slot = 0; slot < previous.Count; slot++)
        {
            int old = previous[slot];
            int p = old >= 0 ? oldToNew[old] : -1;
            if (p >= 0)
            {
                (slotsOf[p] ??= []).Add(slot);
            }
        }

        for (int p = 0; p < need.Length; p++)
        {
            List<int>? slots = slotsOf[p];
            if (slots is null || need[p] == 0)
            {
                continue;
            }

            if (slots.Count > need[p])
            {
                // Shrinking: keep the slots in the groups where the program is densest, then the lowest ids.
                var perGroup = new Dictionary<int, int>();
                foreach (int slot in slots)
                {
                    perGroup[groupOf[slot]] = perGroup.GetValueOrDefault(groupOf[slot]) + 1;
                }

                slots.Sort((a, b) =>
                {
                    int c = perGroup[groupOf[b]].CompareTo(perGroup[groupOf[a]]);
                    return c != 0 ? c : a.CompareTo(b);
                });
            }

            int keep = Math.Min(slots.Count, need[p]);
            for (int k = 0; k < keep; k++)
            {
                owners[slots[k]] = p;
            }

            need[p] -= keep;
        }
    }

    private static void TakeWholeGroups(IReadOnlyList<IReadOnlyList<int>> groups, int[] need, int[] owners)
    {
        var freeGroups = new List<int>();
        for (int g = 0; g < groups.Count; g++)
        {
            if (groups[g].All(slot => owners[slot] < 0))
            {
                freeGroups.Add(g);
            }
        }

        // Largest group first, ties lower group index.
        freeGroups.Sort((a, b) =>
        {
            int c = groups[b].Count.CompareTo(groups[a].Count);
            return c != 0 ? c : a.CompareTo(b);
        });

        var programs = Enumerable.Range(0, need.Length).Where(p => need[p] > 0).ToList();
        programs.Sort((a, b) =>
        {
            int c = need[b].CompareTo(need[a]);
            return c != 0 ? c : a.CompareTo(b);
        });

        foreach (int p in programs)
        {
            for (int i = 0; i < freeGroups.Count && need[p] > 0; i++)
            {
                int g = freeGroups[i];
                if (groups[g].Count <= need[p])
                {
                    foreach (int slot in groups[g])
                    {
                        owners[slot] = p;
                    }

                    need[p] -= groups[g].Count;
                    freeGroups.RemoveAt(i);
                    i--;
                }
            }
        }
    }

    private static void FillSameGroup(IReadOnlyList<IReadOnlyList<int>> groups, int[] need, int[] owners, int m)
    {
        var held = new int[m];
        foreach (IReadOnlyList<int> group in groups)
        {
            Array.Clear(held);
            bool anyFree = false;
            foreach (int slot in group)
            {
                if (owners[slot] >= 0)
                {
                    held[owners[slot]]++;
                }
                else
                {
                    anyFree = true;
                }
            }

            if (!anyFree)
            {
                continue;
            }

            var candidates = Enumerable.Range(0, m).Where(p => held[p] > 0 && need[p] > 0).ToList();
            candidates.Sort((a, b) =>
            {
                int c = held[b].CompareTo(held[a]);
                return c != 0 ? c : a.CompareTo(b);
            });

            int next = 0;
            foreach (int slot in group)
            {
                while (next < candidates.Count && need[candidates[next]] == 0)
                {
                    next++;
                }

                if (next == candidates.Count)
                {
                    break;
                }

                if (owners[slot] < 0)
                {
                    owners[slot] = candidates[next];
                    need[candidates[next]]--;
                }
            }
        }
    }

    private static void FillContiguous(IReadOnlyList<IReadOnlyList<int>>? groups, int[] need, int[] owners, int m)
    {
        IEnumerable<int> slotOrder = groups is null ? Enumerable.Range(0, owners.Length) : groups.SelectMany(g => g);
        var free = slotOrder.Where(slot => owners[slot] < 0).ToList();
        if (free.Count == 0)
        {
            return;
        }

        var lowest = new int[m];
        Array.Fill(lowest, int.MaxValue);
        for (int slot = 0; slot < owners.Length; slot++)
        {
            int p = owners[slot];
            if (p >= 0 && slot < lowest[p])
            {
                lowest[p] = slot;
            }
        }

        var programs = Enumerable.Range(0, m).Where(p => need[p] > 0).ToList();
        programs.Sort((a, b) =>
        {
            int c = lowest[a].CompareTo(lowest[b]);
            return c != 0 ? c : a.CompareTo(b);
        });

        int f = 0;
        foreach (int p in programs)
        {
            while (need[p] > 0)
            {
                owners[free[f++]] = p;
                need[p]--;
            }
        }
    }

    private static AllocationReason[]? ReasonsPerSlot(int[] owners, IReadOnlyList<IReadOnlyList<AllocationReason>>? reasons, int m)
    {
        if (reasons is null)
        {
            return null;
        }

        var next = new int[m];
        var perSlot = new AllocationReason[owners.Length];
        for (int slot = 0; slot < owners.Length; slot++)
        {
            int p = owners[slot];
            if (p >= 0)
            {
                perSlot[slot] = reasons[p][next[p]++];
            }
        }

        return perSlot;
    }
}
