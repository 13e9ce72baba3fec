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
    /// core reasons go first to the slots it kept from the previous allocation, then to the slots it gained, each in
    /// ascending slot order (so the reasons a later step added label the cores that moved).
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

    /// <summary>
    /// <see cref="Place"/> for an input and shares already checked (the <see cref="Repartitioner"/>'s path).
    /// <paramref name="scratch"/>: the caller's reusable working arrays (the repartitioner's), or null for fresh ones;
    /// the result shares no array with it.
    /// </summary>
    internal static Allocation PlaceChecked(PartitioningInput input, Shares shares, PlacementScratch? scratch = null)
    {
        int n = input.Cores;
        int m = input.Programs.Count;
        scratch ??= new PlacementScratch();
        scratch.Reset(n, m, input.CacheGroups);
        var ids = new int[m]; // owned by the result
        int[] need = scratch.Need;
        ProgramShare[] byIndex = scratch.ShareOf;
        for (int i = 0; i < m; i++)
        {
            ids[i] = input.Programs[i].ProgramId;

            // Shares built by index (Shares.FromCounts) are in input order: no lookup by id.
            byIndex[i] = i < shares.Count && shares[i].ProgramId == ids[i] ? shares[i] : shares.Find(ids[i])!;
            need[i] = byIndex[i].Cores;
        }

        int[] owners = scratch.Owners; // per slot, the owner's program index, or -1 while free
        if (m > 0)
        {
            KeepPrevious(input, need, owners, scratch);
            if (input.CacheGroups is not null)
            {
                TakeWholeGroups(input.CacheGroups, need, owners);
                FillSameGroup(input.CacheGroups, need, owners, m);
            }

            FillContiguous(input.CacheGroups, need, owners, m, scratch);
        }

        // Owners by index -> by id. Each program's reasons go first to the slots it kept, then to the slots it gained,
        // each in ascending slot order: a share lists the reasons of the cores it already had first and those a later
        // step added last (Shares.WithCounts), so a core that moves to a program carries the reason it was added for. (In
        // slot order alone, a newcomer that kept slot 1 and gained slot 0 had the move of slot 0 labelled with the
        // rotation's reason, and its Newcomer reason went to the core that never moved.)
        int[] next = scratch.Next;
        var ownerIds = new int[n];             // owned by the result
        var reasons = new AllocationReason[n]; // owned by the result
        Allocation? previous = input.Previous;
        for (int pass = 0; pass < 2; pass++)
        {
            for (int slot = 0; slot < n; slot++)
            {
                int p = owners[slot];
                if (p < 0)
                {
                    ownerIds[slot] = -1;
                    continue;
                }

                bool kept = previous is not null && slot < previous.Cores && previous.OwnerIndexAt(slot) is int j && j >= 0 && previous.ProgramIds[j] == ids[p];
                if (kept == (pass == 0))
                {
                    ownerIds[slot] = ids[p];
                    reasons[slot] = byIndex[p].CoreReasons[next[p]++];
                }
            }
        }

        Array.Clear(byIndex); // the scratch keeps no reference to this decision's shares
        return new Allocation(ids, ownerIds, reasons, owned: true);
    }

    private static void KeepPrevious(PartitioningInput input, int[] need, int[] owners, PlacementScratch scratch)
    {
        Allocation? previous = input.Previous;
        if (previous is null)
        {
            return;
        }

        // The input index of each program of the previous decision (-1: it left), so that each slot's previous owner
        // is found by index, not by id.
        int[] inputIndexOf = scratch.PreviousToInput(previous.ProgramIds.Count);
        for (int i = 0; i < input.Programs.Count; i++)
        {
            int j = previous.IndexOf(input.Programs[i].ProgramId);
            if (j >= 0)
            {
                inputIndexOf[j] = i;
            }
        }

        int[] held = scratch.Held;
        for (int slot = 0; slot < previous.Cores; slot++)
        {
            int j = previous.OwnerIndexAt(slot);
            if (j >= 0 && inputIndexOf[j] >= 0)
            {
                held[inputIndexOf[j]]++;
            }
        }

        // A program that keeps all its previous slots, or shrinks without cache groups (all slots equally dense: the
        // lowest ids first), keeps them in ascending slot order, in this one pass. Only a program shrinking across
        // cache groups needs its slots ordered by density (ShrinkAcrossGroups).
        IReadOnlyList<IReadOnlyList<int>>? groups = input.CacheGroups;
        for (int p = 0; p < need.Length; p++)
        {
            held[p] = groups is not null && held[p] > need[p] ? 1 : 0; // from here on: 1 = shrinks across cache groups
        }

        for (int slot = 0; slot < previous.Cores; slot++)
        {
            int j = previous.OwnerIndexAt(slot);
            int p = j >= 0 ? inputIndexOf[j] : -1;
            if (p >= 0 && need[p] > 0 && held[p] == 0)
            {
                owners[slot] = p;
                need[p]--;
            }
        }

        if (groups is not null)
        {
            for (int p = 0; p < need.Length; p++)
            {
                if (held[p] == 1 && need[p] > 0)
                {
                    ShrinkAcrossGroups(previous, inputIndexOf, p, need, owners, scratch.GroupOf);
                }
            }
        }
    }

    // Keeps need[p] of p's previous slots: those in the cache groups where it holds most, then the lowest ids.
    private static void ShrinkAcrossGroups(Allocation previous, int[] inputIndexOf, int p, int[] need, int[] owners, int[] groupOf)
    {
        var slots = new List<int>();
        for (int slot = 0; slot < previous.Cores; slot++)
        {
            int j = previous.OwnerIndexAt(slot);
            if (j >= 0 && inputIndexOf[j] == p)
            {
                slots.Add(slot);
            }
        }

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
        for (int k = 0; k < need[p]; k++)
        {
            owners[slots[k]] = p;
        }

        need[p] = 0;
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

    private static void FillContiguous(IReadOnlyList<IReadOnlyList<int>>? groups, int[] need, int[] owners, int m, PlacementScratch scratch)
    {
        // The free slots, in group order (or ascending id).
        int[] free = scratch.Free;
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

        int[] lowest = scratch.Lowest;
        Array.Fill(lowest, int.MaxValue);
        for (int slot = 0; slot < owners.Length; slot++)
        {
            int p = owners[slot];
            if (p >= 0 && slot < lowest[p])
            {
                lowest[p] = slot;
            }
        }

        int[] programs = scratch.Programs;
        int needing = 0;
        for (int p = 0; p < m; p++)
        {
            if (need[p] > 0)
            {
                programs[needing++] = p;
            }
        }

        // By the lowest slot held (programs holding none after, by index): a stable key, so an unstable sort is exact.
        long[] keys = scratch.Keys;
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
