from leadtui.cli import main

raise SystemExit(main())
