namespace DivCon.Partitioning;

/// <summary>
/// Turns a decision's shares into worker slot owners: the one placement, applied by
/// the <see cref="Repartitioner"/> to every policy's shares. Pure, like the policies.
/// </summary>
/// <remarks>
/// <para>Rules, in order:</para>
/// <list type="number">
/// <item><b>Keep.</b> With a previous allocation, each program that was already there (matched by
/// <see cref="ProgramLoad.ProgramId"/> in <see cref="PartitioningInput.Previous"/>) keeps
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
    /// <summary>Places <paramref name="shares"/> on the worker slots of <paramref name="input"/>.</summary>
    /// <param name="input">The decision's input (cores, programs, cache groups, previous allocation).</param>
    /// <param name="shares">
    /// One share per program of the input, summing to the cores when there is at least one program; each program's
    /// core reasons go to its slots in ascending slot order.
    /// </param>
    /// <exception cref="ArgumentException">The input is invalid or the shares do not fit it.</exception>
    public static Allocation Place(PartitioningInput input, Shares shares)
    {
        PartitioningValidation.ThrowIfInvalid(input);
        ArgumentNullException.ThrowIfNull(shares);
        IReadOnlyList<string> problems = shares.Problems(input);
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(" ", problems), nameof(shares));
        }

        return PlaceChecked(input, shares);
    }

    /// <summary><see cref="Place"/> for an input and shares already checked (the <see cref="Repartitioner"/>'s path).</summary>
    internal static Allocation PlaceChecked(PartitioningInput input, Shares shares)
    {
        int n = input.Cores;
        int m = input.Programs.Count;
        var ids = new int[m];
        var need = new int[m];
        var byIndex = new ProgramShare[m];
        for (int i = 0; i < m; i++)
        {
            ids[i] = input.Programs[i].ProgramId;
            byIndex[i] = shares.Find(ids[i])!;
            need[i] = byIndex[i].Cores;
        }

        var owners = new int[n];
        Array.Fill(owners, -1);
        if (m > 0)
        {
            int[] groupOf = GroupOfSlots(n, input.CacheGroups);
            KeepPrevious(input, need, owners, groupOf);
            if (input.CacheGroups is not null)
            {
                TakeWholeGroups(input.CacheGroups, need, owners);
                FillSameGroup(input.CacheGroups, need, owners, m);
            }

            FillContiguous(input.CacheGroups, need, owners, m);
        }

        // Owners by index -> by id, with each program's reasons in ascending slot order.
        var next = new int[m];
        var ownerIds = new int[n];
        var reasons = new AllocationReason[n];
        for (int slot = 0; slot < n; slot++)
        {
            int p = owners[slot];
            if (p >= 0)
            {
                ownerIds[slot] = ids[p];
                reasons[slot] = byIndex[p].CoreReasons[next[p]++];
            }
            else
            {
                ownerIds[slot] = -1;
            }
        }

        return new Allocation(ids, ownerIds, reasons);
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
        if (input.Previous is null)
        {
            return;
        }

        var indexOfId = new Dictionary<int, int>(input.Programs.Count);
        for (int i = 0; i < input.Programs.Count; i++)
        {
            indexOfId[input.Programs[i].ProgramId] = i;
        }

        var slotsOf = new List<int>?[need.Length];
        IReadOnlyList<int> previous = input.Previous.WorkerOwners;
        for (int slot = 0; slot < previous.Count; slot++)
        {
            if (previous[slot] >= 0 && indexOfId.TryGetValue(previous[slot], out int p))
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
        // The free slots, in group order (or ascending id).
        var free = new int[owners.Length];
        int freeCount = 0;
        if (groups is null)
        {
            for (int slot = 0; slot < owners.Length; slot++)
            {
                if (owners[slot] < 0)
                {
                    free[freeCount++] = slot;
                }
            }
        }
        else
        {
            foreach (IReadOnlyList<int> group in groups)
            {
                foreach (int slot in group)
                {
                    if (owners[slot] < 0)
                    {
                        free[freeCount++] = slot;
                    }
                }
            }
        }

        if (freeCount == 0)
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

        var programs = new int[m];
        int needing = 0;
        for (int p = 0; p < m; p++)
        {
            if (need[p] > 0)
            {
                programs[needing++] = p;
            }
        }

        // By the lowest slot held (programs holding none after, by index): a stable key, so an unstable sort is exact.
        var keys = new long[needing];
        for (int k = 0; k < needing; k++)
        {
            keys[k] = ((long)lowest[programs[k]] << 32) | (uint)programs[k];
        }

        Array.Sort(keys, programs, 0, needing);
        int f = 0;
        for (int k = 0; k < needing; k++)
        {
            int p = programs[k];
            while (need[p] > 0)
            {
                owners[free[f++]] = p;
                need[p]--;
            }
        }
    }
}
