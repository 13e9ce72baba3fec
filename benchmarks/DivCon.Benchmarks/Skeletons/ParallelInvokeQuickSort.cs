namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// The thesis's comparison point (§4.2.1 Figure 4.4, §7.2): a plain recursive quicksort that forks with
/// <see cref="Parallel.Invoke(Action[])"/> on the default scheduler and sorts ranges of at most a threshold with
/// <see cref="Array.Sort{T}(T[], int, int)"/>. Non-destructive like the skeleton's: copies the source first.
/// </summary>
internal static class ParallelInvokeQuickSort
{
    public static void Sort(int[] source, int[] target, int threshold)
    {
        Array.Copy(source, target, source.Length);
        Sort(target, 0, target.Length, threshold);
    }

    private static void Sort(int[] a, int lo, int hi, int threshold)
    {
        if (hi - lo <= threshold)
        {
            Array.Sort(a, lo, hi - lo);
            return;
        }

        // Hoare partition around the middle element: [lo, j] ≤ pivot ≤ [i, hi), both non-empty and smaller than [lo, hi).
        int pivot = a[lo + ((hi - lo) / 2)];
        int i = lo;
        int j = hi - 1;
        while (i <= j)
        {
            while (a[i] < pivot)
            {
                i++;
            }

            while (a[j] > pivot)
            {
                j--;
            }

            if (i <= j)
            {
                (a[i], a[j]) = (a[j], a[i]);
                i++;
                j--;
            }
        }

        int leftEnd = j + 1;
        int rightStart = i;
        Parallel.Invoke(
            () => Sort(a, lo, leftEnd, threshold),
            () => Sort(a, rightStart, hi, threshold));
    }
}
