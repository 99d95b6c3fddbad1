from leadtui.cli.main import main

raise SystemExit(main())
