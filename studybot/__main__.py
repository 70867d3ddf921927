from studybot.cli import main

main()
