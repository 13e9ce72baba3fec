using DivCon.Scheduling;
using DivCon.Tests.Infrastructure;

namespace DivCon.Tests.Scheduling;

public sealed class WorkStealingDequeTests
{
    private sealed class Item(int id)
    {
        public int Id { get; } = id;
    }

    [Theory]
    [InlineData(0)]
    [InlineData(int.MaxValue - 3)]
    public void The_owner_pops_LIFO_and_a_thief_steals_FIFO(int startIndex)
    {
        var deque = new WorkStealingDeque<Item>(2, startIndex);
        var items = Enumerable.Range(0, 10).Select(i => new Item(i)).ToArray();
        foreach (Item item in items)
        {
            deque.LocalPush(item);
        }

        Assert.Equal(10, deque.Count);
        Assert.True(deque.Capacity >= 10);
        bool missed = false;
        Assert.Equal(0, deque.TrySteal(ref missed)!.Id);
        Assert.Equal(1, deque.TrySteal(ref missed)!.Id);
        Assert.Equal(9, deque.LocalPop()!.Id);
        Assert.Equal(8, deque.LocalPop()!.Id);
        Assert.False(missed);
        Assert.Equal([2, 3, 4, 5, 6, 7], deque.ToList().Select(i => i.Id));
        Assert.True(deque.LocalFindAndPop(items[4]));
        Assert.False(deque.LocalFindAndPop(items[4]));
        Assert.True(deque.LocalFindAndPop(items[7])); // the top one
        Assert.Equal(6, deque.LocalPop()!.Id);
        Assert.Equal(5, deque.LocalPop()!.Id); // skips nothing: 4 was removed below it
        Assert.Equal(2, deque.TrySteal(ref missed)!.Id);
        Assert.Equal(3, deque.TrySteal(ref missed)!.Id); // the hole left by 4 is skipped next
        Assert.Null(deque.TrySteal(ref missed));
        Assert.Null(deque.LocalPop());
        Assert.False(deque.CanSteal);
    }

    [Fact]
    public void Pushing_past_int_MaxValue_wraps_the_indices_and_keeps_the_order()
    {
        var deque = new WorkStealingDeque<Item>(4, int.MaxValue - 2);
        for (int i = 0; i < 3; i++)
        {
            deque.LocalPush(new Item(i));
        }

        // The third push found the tail at int.MaxValue and masked both indices down to their low bits.
        bool missed = false;
        Assert.Equal(0, deque.TrySteal(ref missed)!.Id);
        for (int i = 3; i < 6; i++)
        {
            deque.LocalPush(new Item(i));
        }

        Assert.Equal([1, 2, 3, 4, 5], deque.ToList().Select(i => i.Id));
        Assert.Equal(5, deque.LocalPop()!.Id);
        Assert.Equal(1, deque.TrySteal(ref missed)!.Id);
    }

    [Fact]
    public void LocalDrainTo_moves_every_item_oldest_first()
    {
        var deque = new WorkStealingDeque<Item>();
        for (int i = 0; i < 100; i++)
        {
            deque.LocalPush(new Item(i));
        }

        var sink = new List<int>();
        Assert.Equal(100, deque.LocalDrainTo(item => sink.Add(item.Id)));
        Assert.Equal(Enumerable.Range(0, 100), sink);
        Assert.Equal(0, deque.Count);
    }

    [Theory]
    [InlineData(2_000_000, 2, 0, 32)]
    [InlineData(2_000_000, 3, int.MaxValue - 1000, 2)]
    public void Owner_popping_while_thieves_steal_takes_every_item_exactly_once(int total, int thieves, int startIndex, int capacity)
        => RunOwnerAndThieves(total, thieves, startIndex, capacity, seed: 1);

    [StressTheory]
    [Trait("Category", "Stress")]
    [InlineData(20_000_000, 1)]
    [InlineData(20_000_000, 4)]
    public void Stress_owner_and_thieves(int total, int thieves)
    {
        for (int seed = 0; seed < 5; seed++)
        {
            RunOwnerAndThieves(total, thieves, int.MaxValue - (1 << 20), 2, seed);
        }
    }

    private static void RunOwnerAndThieves(int total, int thieves, int startIndex, int capacity, int seed)
    {
        var deque = new WorkStealingDeque<Item>(capacity, startIndex);
        var taken = new int[total];
        long stolen = 0;
        bool ownerDone = false;
        var thiefThreads = Enumerable.Range(0, thieves).Select(_ => new Thread(() =>
        {
            while (true)
            {
                bool missed = false;
                Item? item = deque.TrySteal(ref missed);
                if (item is not null)
                {
                    Interlocked.Increment(ref taken[item.Id]);
                    Interlocked.Increment(ref stolen);
                }
                else if (Volatile.Read(ref ownerDone) && !deque.CanSteal)
                {
                    return;
                }
            }
        })).ToList();
        thiefThreads.ForEach(t => t.Start());

        // Owner: bursts of pushes and pops of random sizes, so the deque grows, shrinks and empties often.
        var random = new Random(seed);
        int next = 0;
        int maxCount = 0;
        while (next < total)
        {
            int burst = random.Next(1, 200);
            for (int i = 0; i < burst && next < total; i++)
            {
                deque.LocalPush(new Item(next++));
            }

            maxCount = Math.Max(maxCount, deque.Count);
            int pops = random.Next(0, 220);
            for (int i = 0; i < pops; i++)
            {
                Item? item = deque.LocalPop();
                if (item is null)
                {
                    break;
                }

                Interlocked.Increment(ref taken[item.Id]);
            }
        }

        Item? rest;
        while ((rest = deque.LocalPop()) is not null)
        {
            Interlocked.Increment(ref taken[rest.Id]);
        }

        Volatile.Write(ref ownerDone, true);
        Assert.All(thiefThreads, t => Assert.True(t.Join(TimeSpan.FromSeconds(60)), "A thief did not finish."));
        int[] wrong = Enumerable.Range(0, total).Where(i => taken[i] != 1).Take(10).ToArray();
        Assert.True(wrong.Length == 0, $"Items not taken exactly once: {string.Join(", ", wrong.Select(i => $"{i}x{taken[i]}"))}");
        Assert.True(Interlocked.Read(ref stolen) > 0, "The thieves never stole anything: the test did not exercise contention.");
        Assert.True(deque.Capacity > capacity || maxCount < capacity, "The deque never grew.");
    }
}
