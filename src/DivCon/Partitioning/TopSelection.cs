namespace DivCon.Partitioning;

/// <summary>
/// Picks the <c>k</c> first programs under a strict total order in expected O(m) (quickselect), so the
/// largest-remainder rounding stays linear in the number of programs. The order is strict (it ends with the program
/// index), so the chosen set is unique: the pivots change the work done, never the answer.
/// </summary>
internal static class TopSelection
{
    /// <summary>
    /// Reorders <paramref name="items"/> so that its first <paramref name="k"/> entries are the k smallest under
    /// <paramref name="compare"/> (in no particular order).
    /// </summary>
    public static void SelectFirst(int[] items, int k, Comparison<int> compare)
    {
        int lo = 0, hi = items.Length - 1;
        if (k <= 0 || k >= items.Length)
        {
            return;
        }

        // Invariant: the k smallest are items[0 .. k-1] once lo..hi has shrunk around position k - 1.
        int guard = 0;
        while (lo < hi)
        {
            if (++guard > 64)
            {
                // Pathological pivots: fall back to a sort of the remaining range (still the same unique answer).
                Array.Sort(items, lo, hi - lo + 1, Comparer<int>.Create(compare));
                return;
            }

            int mid = lo + ((hi - lo) / 2);
            int pivot = MedianOfThree(items[lo], items[mid], items[hi], compare);
            int i = lo, j = hi;
            while (i <= j)
            {
                while (compare(items[i], pivot) < 0)
                {
                    i++;
                }

                while (compare(items[j], pivot) > 0)
                {
                    j--;
                }

                if (i <= j)
                {
                    (items[i], items[j]) = (items[j], items[i]);
                    i++;
                    j--;
                }
            }

            // Now items[lo..j] ≤ pivot ≤ items[i..hi], and items strictly between j and i equal the pivot.
            if (k - 1 <= j)
            {
                hi = j;
            }
            else if (k - 1 >= i)
            {
                lo = i;
            }
            else
            {
                return;
            }
        }
    }

    private static int MedianOfThree(int a, int b, int c, Comparison<int> compare)
    {
        if (compare(a, b) > 0)
        {
            (a, b) = (b, a);
        }

        if (compare(b, c) > 0)
        {
            (b, c) = (c, b);
        }

        if (compare(a, b) > 0)
        {
            (a, b) = (b, a);
        }

        return b;
    }
}
