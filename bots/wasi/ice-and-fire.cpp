// A Code of Ice & Fire: a CodinGame contest bot in C++, as a player writes it for the
// original game (standard input with cin/getline, one line of commands on cout, debug on
// cerr), unchanged for botplay. Built with one command (see bots/wasi/README.md):
//
//   clang++ --target=wasm32-wasi -O2 -o ice-and-fire.wasm ice-and-fire.cpp
//
// Strategy: every unit walks to the enemy HQ; level-1 units are trained next to our active
// territory, nearest the enemy HQ first, while gold and income allow; a mine is built on a
// free mine spot of our territory when gold is plentiful. Deterministic (no clock, no random):
// the same input gives the same output natively and as WebAssembly.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace std;

const int SIZE = 12;

struct Building {
    int owner, type, x, y;
};

struct Unit {
    int owner, id, level, x, y;
};

struct Spot {
    int x, y, d;
};

// One turn's input, as the referee writes it.
struct Turn {
    int gold, income, opponentGold, opponentIncome;
    vector<string> rows;
    vector<Building> buildings;
    vector<Unit> units;
};

// Reads a turn; false at the end of the input.
bool readTurn(Turn& t) {
    if (!(cin >> t.gold)) return false;
    cin.ignore();
    cin >> t.income;
    cin.ignore();
    cin >> t.opponentGold;
    cin.ignore();
    cin >> t.opponentIncome;
    cin.ignore();
    t.rows.assign(SIZE, "");
    for (int i = 0; i < SIZE; i++) {
        getline(cin, t.rows[i]);
    }
    int buildingCount;
    cin >> buildingCount;
    cin.ignore();
    t.buildings.clear();
    for (int i = 0; i < buildingCount; i++) {
        Building b;
        cin >> b.owner >> b.type >> b.x >> b.y;
        cin.ignore();
        t.buildings.push_back(b);
    }
    int unitCount;
    cin >> unitCount;
    cin.ignore();
    t.units.clear();
    for (int i = 0; i < unitCount; i++) {
        Unit u;
        cin >> u.owner >> u.id >> u.level >> u.x >> u.y;
        cin.ignore();
        t.units.push_back(u);
    }
    return true;
}

int main() {
    int numberMineSpots;
    cin >> numberMineSpots;
    cin.ignore();
    vector<pair<int, int>> mineSpots;
    for (int i = 0; i < numberMineSpots; i++) {
        int x, y;
        cin >> x >> y;
        cin.ignore();
        mineSpots.push_back({x, y});
    }

    // game loop
    Turn t;
    for (int turn = 1; readTurn(t); turn++) {
        int gold = t.gold, income = t.income;
        const vector<string>& rows = t.rows;
        const vector<Building>& buildings = t.buildings;
        const vector<Unit>& units = t.units;

        Building enemyHq = {1, 0, SIZE - 1, SIZE - 1};
        int myMines = 0;
        set<pair<int, int>> busy;
        for (const Building& b : buildings) {
            if (b.owner == 1 && b.type == 0) enemyHq = b;
            if (b.owner == 0 && b.type == 1) myMines++;
            busy.insert({b.x, b.y});
        }
        for (const Unit& u : units) busy.insert({u.x, u.y});
        auto dist = [&](int x, int y) { return abs(x - enemyHq.x) + abs(y - enemyHq.y); };
        auto mine = [&](int x, int y) {
            return x >= 0 && y >= 0 && x < SIZE && y < SIZE && rows[y][x] == 'O';
        };

        vector<string> commands;
        for (const Unit& u : units) {
            if (u.owner != 0) continue;
            ostringstream c;
            c << "MOVE " << u.id << " " << enemyHq.x << " " << enemyHq.y;
            commands.push_back(c.str());
        }

        // A mine on a free spot of our active territory when gold is plentiful (each costs 15
        // in this game; keep enough to train).
        for (const auto& spot : mineSpots) {
            if (gold < 15 + 30) break;
            if (!mine(spot.first, spot.second) || busy.count(spot)) continue;
            ostringstream c;
            c << "BUILD MINE " << spot.first << " " << spot.second;
            commands.push_back(c.str());
            busy.insert(spot);
            gold -= 15;
        }

        vector<Spot> spots;
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                char cell = rows[y][x];
                if (cell == '#' || cell == 'O' || busy.count({x, y})) continue;
                if (mine(x, y - 1) || mine(x + 1, y) || mine(x, y + 1) || mine(x - 1, y)) {
                    spots.push_back({x, y, dist(x, y)});
                }
            }
        }
        // Nearest the enemy HQ first; ties by row, then column (the same order everywhere).
        sort(spots.begin(), spots.end(), [](const Spot& a, const Spot& b) {
            if (a.d != b.d) return a.d < b.d;
            if (a.y != b.y) return a.y < b.y;
            return a.x < b.x;
        });
        int upkeep = 0;
        for (const Spot& s : spots) {
            if (gold < 10 || income - upkeep < 0) break;
            ostringstream c;
            c << "TRAIN 1 " << s.x << " " << s.y;
            commands.push_back(c.str());
            gold -= 10;
            upkeep += 1;
        }

        cerr << "turn " << turn << ": gold " << gold << ", income " << income << ", mines "
             << myMines << ", " << commands.size() << " commands" << endl;
        if (commands.empty()) {
            cout << "WAIT" << endl;
        } else {
            for (size_t i = 0; i < commands.size(); i++) {
                if (i > 0) cout << ";";
                cout << commands[i];
            }
            cout << endl;
        }
    }
}
